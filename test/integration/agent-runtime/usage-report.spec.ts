import { randomUUID } from 'node:crypto';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

interface Call {
  at: string;
  agent: string | null;
  model: string;
  input: number;
}

/**
 * `GET /api/usage` over calls on several days: whole days come from the daily roll-up, the edges of a
 * window from the call rows; every window must equal the sum of the calls inside it.
 */
describe('GET /api/usage: windows, groupings, pages and refusals', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;
  const agentA = randomUUID();
  const calls: Call[] = [
    { at: '2026-03-01T00:00:00.000Z', agent: agentA, model: 'm1', input: 1 },
    { at: '2026-03-01T23:59:59.999Z', agent: agentA, model: 'm2', input: 2 },
    { at: '2026-03-02T08:00:00.000Z', agent: null, model: 'm1', input: 4 },
    { at: '2026-03-02T12:00:00.000Z', agent: agentA, model: 'm1', input: 8 },
    { at: '2026-03-03T06:00:00.000Z', agent: agentA, model: 'm2', input: 16 },
    { at: '2026-03-04T18:30:00.000Z', agent: null, model: 'm3', input: 32 },
    { at: '2026-03-06T00:00:00.000Z', agent: agentA, model: 'm1', input: 64 },
  ];

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    [admin, user] = await Promise.all([ctx.newUser({ role: 'admin' }), ctx.newUser()]);
    // Rows as the reply statement leaves them: the calls, and their days summed in the roll-up.
    for (const call of calls)
      await ctx.dataSource.query(
        `INSERT INTO model_usage (id, run_id, thread_id, user_id, agent_id, model, purpose, input_tokens,
                                  output_tokens, cached_tokens, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'agent', $7, 1, 0, $8)`,
        [randomUUID(), randomUUID(), randomUUID(), user.id, call.agent, call.model, call.input, call.at],
      );
    await ctx.dataSource.query(
      `INSERT INTO model_usage_daily (day, user_id, agent_id, model, input_tokens, output_tokens, cached_tokens, calls)
       SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, agent_id, model, sum(input_tokens),
              sum(output_tokens), sum(cached_tokens), count(*)
         FROM model_usage WHERE user_id = $1 GROUP BY 1, 2, 3, 4`,
      [user.id],
    );
  });
  afterAll(() => ctx.close());

  /** The calls in [since, until), summed per key: what every answer must be. */
  function expected(keyOf: (call: Call) => string | null, since?: string, until?: string) {
    const inWindow = calls.filter(
      (call) =>
        (since === undefined || Date.parse(call.at) >= Date.parse(since)) &&
        (until === undefined || Date.parse(call.at) < Date.parse(until)),
    );
    const byKey = new Map<string | null, { input_tokens: number; calls: number }>();
    for (const call of inWindow) {
      const sums = byKey.get(keyOf(call)) ?? { input_tokens: 0, calls: 0 };
      byKey.set(keyOf(call), { input_tokens: sums.input_tokens + call.input, calls: sums.calls + 1 });
    }
    return [...byKey]
      .sort(([a], [b]) => ((a ?? '') < (b ?? '') ? -1 : 1))
      .map(([key, sums]) => ({ key, ...sums, output_tokens: sums.calls, cached_tokens: 0 }));
  }

  const report = async (viewer: TestUser, query: string) => {
    const res = await ctx.http.get(`/api/usage?${query}`).set(auth(viewer));
    expect(res.status).toBe(200);
    return res.body as { items: Record<string, unknown>[]; next_cursor: string | null };
  };

  const windows: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['2026-03-01T00:00:00.000Z', '2026-03-06T00:00:00.000Z'],
    ['2026-03-01T12:00:00.000Z', '2026-03-03T07:00:00.000Z'],
    ['2026-03-02T09:00:00.000Z', '2026-03-02T13:00:00.000Z'],
    ['2026-03-01T23:59:59.999Z', '2026-03-02T00:00:00.000Z'],
    ['2026-03-02T00:00:00.000Z', undefined],
    [undefined, '2026-03-02T10:00:00+02:00'],
    ['2026-03-04T00:00:00.000Z', '2026-03-04T00:00:00.000Z'],
  ];

  it('sums exactly the calls inside any window, by model, agent and day', async () => {
    const groupings: [string, (call: Call) => string | null][] = [
      ['model', (call) => call.model],
      ['agent', (call) => call.agent],
      ['day', (call) => call.at.slice(0, 10)],
    ];
    for (const [since, until] of windows)
      for (const [groupBy, keyOf] of groupings) {
        const query = new URLSearchParams({ group_by: groupBy, user_id: user.id });
        if (since !== undefined) query.set('since', since);
        if (until !== undefined) query.set('until', until);
        const page = await report(admin, query.toString());
        expect({ since, until, groupBy, items: page.items }).toEqual({
          since,
          until,
          groupBy,
          // agentA names no agent of the database (as a deleted one would): the group has no name.
          items: expected(keyOf, since, until).map((item) =>
            groupBy === 'agent' ? { ...item, label: null } : item,
          ),
        });
      }
  });

  it("gives a user their own calls without user_id, and the same as an admin's view of them", async () => {
    const own = await report(user, 'group_by=user&since=2026-03-01T12:00:00Z&until=2026-03-04T19:00:00Z');
    expect(own).toEqual({
      items: expected(() => user.id, '2026-03-01T12:00:00Z', '2026-03-04T19:00:00Z'),
      next_cursor: null,
    });
    const another = await ctx.newUser();
    expect(await report(another, 'group_by=model')).toEqual({ items: [], next_cursor: null });
    // Without group_by the report is per user: for a user, their own total.
    expect(await report(user, '')).toEqual({ items: expected(() => user.id), next_cursor: null });
  });

  it('pages through the groups with an opaque cursor, none repeated or skipped', async () => {
    const seen: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: unknown[]; next_cursor: string | null } = await report(
        admin,
        `group_by=day&user_id=${user.id}&limit=2${cursor === null ? '' : `&cursor=${cursor}`}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items);
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(seen).toEqual(expected((call) => call.at.slice(0, 10)));
  });

  it('refuses bad since, until, group_by, limit and cursor with 400 naming each field', async () => {
    const cases: [string, string[]][] = [
      ['group_by=', ['group_by']],
      ['group_by=week', ['group_by']],
      ['group_by=day&since=yesterday', ['since']],
      ['group_by=day&until=2026-13-01T00:00:00Z', ['until']],
      ['group_by=day&since=1969-12-31T00:00:00Z', ['since']],
      ['group_by=day&since=2026-03-02T00:00:00Z&until=2026-03-01T00:00:00Z', ['until']],
      ['group_by=day&limit=0', ['limit']],
      ['group_by=day&limit=201', ['limit']],
      ['group_by=day&cursor=not-a-cursor', ['cursor']],
      ['group_by=day&user_id=42', ['user_id']],
    ];
    for (const [query, fields] of cases) {
      const res = await ctx.http.get(`/api/usage?${query}`).set(auth(admin));
      expect({ query, status: res.status, code: res.body.code }).toEqual({
        query,
        status: 400,
        code: 'common.validation_failed',
      });
      expect((res.body.details.fields as { field: string }[]).map((f) => f.field)).toEqual(fields);
    }
  });

  it("refuses a user another user's report (403) and takes their own id", async () => {
    const refused = await ctx.http.get(`/api/usage?group_by=day&user_id=${admin.id}`).set(auth(user));
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'usage.user_forbidden', details: null });
    const own = await report(user, `group_by=model&user_id=${user.id}`);
    expect(own.items).toEqual(expected((call) => call.model));
  });

  it('answers 404 for a thread usage of a missing thread and 400 for a malformed id', async () => {
    expect((await ctx.http.get(`/api/threads/${randomUUID()}/usage`).set(auth(user))).body.code).toBe(
      'threads.not_found',
    );
    const malformed = await ctx.http.get('/api/threads/nope/usage').set(auth(user));
    expect(malformed.status).toBe(400);
    const badFlag = await ctx.http
      .get(`/api/threads/${randomUUID()}/usage?include_children=yes`)
      .set(auth(user));
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['include_children']);
  });
});
