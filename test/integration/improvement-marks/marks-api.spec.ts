import { randomUUID } from 'node:crypto';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';
import { insertMark, type MarkRow } from './mark-rows';

/** A mark as the API answers it: the row, with its date as ISO text. */
type MarkBody = Omit<MarkRow, 'created_at'> & { created_at: string };

describe('GET /api/improvement-marks', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let superadmin: TestUser;
  let alice: TestUser;
  let bob: TestUser;
  /** Oldest first: a1 (3 days), b1 (2 days, other agent), a2 (1 day, same run as a3), a3 (now). */
  let marks: Record<'a1' | 'b1' | 'a2' | 'a3', MarkRow>;
  const sharedRun = randomUUID();

  beforeAll(async () => {
    ctx = await TestContext.start();
    [admin, superadmin, alice, bob] = await Promise.all([
      ctx.newUser({ role: 'admin' }),
      ctx.newUser({ role: 'superadmin' }),
      ctx.newUser(),
      ctx.newUser(),
    ]);
    marks = {
      a1: await insertMark(ctx, { userId: alice.id, age: '3 days', reason: 'alice one' }),
      b1: await insertMark(ctx, {
        userId: bob.id,
        age: '2 days',
        agentSlug: 'researcher',
        reason: 'bob one',
      }),
      a2: await insertMark(ctx, { userId: alice.id, age: '1 day', runId: sharedRun, reason: 'alice two' }),
      a3: await insertMark(ctx, { userId: alice.id, runId: sharedRun, reason: 'alice three' }),
    };
  });
  afterAll(() => ctx.close());

  const list = (user: TestUser, query: Record<string, string | number> = {}) =>
    ctx.http.get('/api/improvement-marks').query(query).set(auth(user));
  const ids = (body: { items: MarkBody[] }) => body.items.map((m) => m.id);
  const iso = (row: MarkRow) => row.created_at.toISOString();

  it('shows an admin every mark, newest first, with every field', async () => {
    const res = await list(admin);
    expect(res.status).toBe(200);
    expect(ids(res.body)).toEqual([marks.a3.id, marks.a2.id, marks.b1.id, marks.a1.id]);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.items[3]).toEqual({
      id: marks.a1.id,
      run_id: marks.a1.run_id,
      tool_call_id: marks.a1.tool_call_id,
      agent_slug: 'default-chatbot',
      user_id: alice.id,
      thread_id: marks.a1.thread_id,
      reason: 'alice one',
      created_at: iso(marks.a1),
    });
    expect(ids((await list(superadmin)).body)).toHaveLength(4);
  });

  it('filters by agent, user, run and creation time for admins', async () => {
    expect(ids((await list(admin, { agent_slug: 'researcher' })).body)).toEqual([marks.b1.id]);
    expect(ids((await list(admin, { user_id: alice.id })).body)).toEqual([
      marks.a3.id,
      marks.a2.id,
      marks.a1.id,
    ]);
    expect(ids((await list(admin, { run_id: sharedRun })).body)).toEqual([marks.a3.id, marks.a2.id]);
    expect(ids((await list(admin, { user_id: bob.id, run_id: sharedRun })).body)).toEqual([]);
    // since is inclusive, until exclusive.
    expect(ids((await list(admin, { since: iso(marks.b1) })).body)).toEqual([
      marks.a3.id,
      marks.a2.id,
      marks.b1.id,
    ]);
    expect(ids((await list(admin, { until: iso(marks.b1) })).body)).toEqual([marks.a1.id]);
    expect(ids((await list(admin, { since: iso(marks.b1), until: iso(marks.a3) })).body)).toEqual([
      marks.a2.id,
      marks.b1.id,
    ]);
    expect(ids((await list(admin, { since: iso(marks.a2), until: iso(marks.a2) })).body)).toEqual([]);
  });

  it('pages with limit and next_cursor without skipping or repeating', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 10; page++) {
      const res = await list(admin, { limit: 1, ...(cursor === null ? {} : { cursor }) });
      expect(res.status).toBe(200);
      expect(res.body.items.length).toBeLessThanOrEqual(1);
      seen.push(...ids(res.body));
      cursor = res.body.next_cursor;
      if (cursor === null) break;
    }
    expect(seen).toEqual([marks.a3.id, marks.a2.id, marks.b1.id, marks.a1.id]);
    // Filters and pages combine.
    const first = await list(admin, { user_id: alice.id, limit: 2 });
    expect(ids(first.body)).toEqual([marks.a3.id, marks.a2.id]);
    const second = await list(admin, { user_id: alice.id, limit: 2, cursor: first.body.next_cursor });
    expect(ids(second.body)).toEqual([marks.a1.id]);
    expect(second.body.next_cursor).toBeNull();
  });

  it('shows a normal user only the marks of their own runs, whatever the filters say', async () => {
    expect(ids((await list(alice)).body)).toEqual([marks.a3.id, marks.a2.id, marks.a1.id]);
    expect(ids((await list(bob)).body)).toEqual([marks.b1.id]);
    // Another user's id filters to nothing rather than revealing their marks.
    const other = await list(bob, { user_id: alice.id });
    expect(other.status).toBe(200);
    expect(other.body).toEqual({ items: [], next_cursor: null });
    expect(ids((await list(bob, { run_id: sharedRun })).body)).toEqual([]);
    expect(ids((await list(alice, { user_id: alice.id, run_id: sharedRun, limit: 1 })).body)).toEqual([
      marks.a3.id,
    ]);
  });

  it('reads one mark with the same visibility, and hides others’ as 404', async () => {
    const own = await ctx.http.get(`/api/improvement-marks/${marks.b1.id}`).set(auth(bob));
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({
      id: marks.b1.id,
      user_id: bob.id,
      reason: 'bob one',
      agent_slug: 'researcher',
    });
    const byAdmin = await ctx.http.get(`/api/improvement-marks/${marks.b1.id}`).set(auth(admin));
    expect(byAdmin.body).toEqual(own.body);

    const foreign = await ctx.http.get(`/api/improvement-marks/${marks.a1.id}`).set(auth(bob));
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({
      status_code: 404,
      code: 'improvement_marks.not_found',
      details: null,
    });
    const missing = await ctx.http.get(`/api/improvement-marks/${randomUUID()}`).set(auth(admin));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('improvement_marks.not_found');
  });

  it('answers bad filters and ids with 400 common.validation_failed naming the field', async () => {
    const fieldsOf = async (query: Record<string, string>) => {
      const res = await list(admin, query);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('common.validation_failed');
      return (res.body.details.fields as { field: string }[]).map((f) => f.field).sort();
    };
    expect(await fieldsOf({ user_id: 'alice' })).toEqual(['user_id']);
    expect(await fieldsOf({ run_id: '1234' })).toEqual(['run_id']);
    expect(await fieldsOf({ since: 'last week' })).toEqual(['since']);
    expect(await fieldsOf({ until: '2026-02-30T00:00:00Z' })).toEqual(['until']);
    expect(await fieldsOf({ since: '2026-03-02T00:00:00Z', until: '2026-03-01T00:00:00Z' })).toEqual([
      'until',
    ]);
    expect(await fieldsOf({ limit: '0' })).toEqual(['limit']);
    expect(await fieldsOf({ cursor: 'not-a-cursor' })).toEqual(['cursor']);
    expect(await fieldsOf({ reason: 'x' })).toEqual(['reason']);

    const badId = await ctx.http.get('/api/improvement-marks/not-a-uuid').set(auth(admin));
    expect(badId.status).toBe(400);
    expect(badId.body).toMatchObject({
      code: 'common.validation_failed',
      details: { fields: [{ field: 'id' }] },
    });
  });

  it('requires authentication', async () => {
    expect((await ctx.http.get('/api/improvement-marks')).status).toBe(401);
    expect((await ctx.http.get(`/api/improvement-marks/${marks.a1.id}`)).status).toBe(401);
  });
});
