import { auth } from '../../support/runs/run-helpers';
import { runRow } from '../../support/runs/run-rows';
import { occurrenceRows } from '../../support/schedules';
import { TestContext, type TestUser } from '../../support/test-app';

const LIMIT = 3;

describe('schedules API', () => {
  let ctx: TestContext;
  let owner: TestUser;
  let stranger: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({
      APP_ROLE: 'api',
      SCHEDULES_PER_USER: String(LIMIT),
      SCHEDULE_MIN_INTERVAL_SECONDS: '300',
    });
    owner = await ctx.newUser();
    stranger = await ctx.newUser();
    admin = await ctx.newUser({ role: 'admin' });
  });

  afterAll(async () => {
    await ctx?.close();
  });

  const create = (as: TestUser, body: object, slug = 'default-chatbot') =>
    ctx.http
      .post(`/api/agents/${slug}/schedules`)
      .set(auth(as))
      .send({ cron: '0 8 * * *', timezone: 'Europe/Berlin', input: 'Morning digest', ...body });
  const scheduleCount = async (userId: string) =>
    (
      await ctx.dataSource.query<[{ count: number }]>(
        `SELECT count(*)::int AS count FROM schedules WHERE owner_id = $1`,
        [userId],
      )
    )[0].count;
  const deleteAll = (userId: string) =>
    ctx.dataSource.query(`DELETE FROM schedules WHERE owner_id = $1`, [userId]);

  it('creates a schedule and reads it back, with its next period in its time zone', async () => {
    const before = Date.now();
    const res = await create(owner, { cron: '30 6 * * 1-5', input: 'Weekday summary' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      agent_slug: 'default-chatbot',
      owner_id: owner.id,
      cron: '30 6 * * 1-5',
      timezone: 'Europe/Berlin',
      input: 'Weekday summary',
      enabled: true,
      next_run_at: expect.any(String),
      created_at: expect.any(String),
    });
    const next = new Date(res.body.next_run_at);
    expect(next.getTime()).toBeGreaterThan(before);
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      minute: '2-digit',
      weekday: 'short',
    }).format(next);
    expect(local).toMatch(/^(Mon|Tue|Wed|Thu|Fri) 06:30$/);
    const read = await ctx.http.get(`/api/schedules/${res.body.id}`).set(auth(owner));
    expect(read.body).toEqual(res.body);
    const [row] = await ctx.dataSource.query(
      `SELECT agent_slug, owner_id, enabled FROM schedules WHERE id = $1`,
      [res.body.id],
    );
    expect(row).toEqual({ agent_slug: 'default-chatbot', owner_id: owner.id, enabled: true });
    await deleteAll(owner.id);
  });

  it.each([
    [{ cron: '* * * *' }, 'cron'],
    [{ cron: '0 8 * * * *' }, 'cron'],
    [{ cron: '@daily' }, 'cron'],
    [{ cron: '0 25 * * *' }, 'cron'],
    [{ cron: '0 0 30 2 *' }, 'cron'],
    [{ cron: '*/2 * * * *' }, 'cron'], // every 2 minutes, under SCHEDULE_MIN_INTERVAL_SECONDS=300
    [{ timezone: 'Europe/Atlantis' }, 'timezone'],
    [{ timezone: 'GMT+1' }, 'timezone'],
    [{ input: '' }, 'input'],
    [{ input: 7 }, 'input'],
    [{ enabled: 'yes' }, 'enabled'],
    [{ request_id: 'a b' }, 'request_id'],
    [{ extra: 1 }, 'extra'],
  ])('refuses %j with 400 common.validation_failed naming %s, and stores nothing', async (body, field) => {
    const res = await create(owner, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    expect(await scheduleCount(owner.id)).toBe(0);
  });

  it('accepts the shortest allowed interval (every 5 minutes at SCHEDULE_MIN_INTERVAL_SECONDS=300)', async () => {
    const res = await create(owner, { cron: '*/5 * * * *' });
    expect(res.status).toBe(201);
    await deleteAll(owner.id);
  });

  it('refuses an agent the caller may not run with 404, and a schedule past the limit with 409', async () => {
    const privateAgent = await ctx.newAgent(stranger);
    const hidden = await create(owner, {}, privateAgent.slug);
    expect(hidden.status).toBe(404);
    expect(hidden.body.code).toBe('schedules.unknown_agent');

    for (let i = 0; i < LIMIT; i += 1) expect((await create(owner, { input: `job ${i}` })).status).toBe(201);
    const over = await create(owner, { input: 'one too many' });
    expect(over.status).toBe(409);
    expect(over.body).toMatchObject({ code: 'schedules.limit_reached', details: { limit: LIMIT } });
    expect(await scheduleCount(owner.id)).toBe(LIMIT);
    await deleteAll(owner.id);
  });

  it('holds the limit under concurrent creations', async () => {
    const results = await Promise.all(
      Array.from({ length: LIMIT + 3 }, (_, i) => create(owner, { input: `racing ${i}` })),
    );
    expect(results.filter((res) => res.status === 201)).toHaveLength(LIMIT);
    expect(results.filter((res) => res.status === 409)).toHaveLength(3);
    expect(await scheduleCount(owner.id)).toBe(LIMIT);
    await deleteAll(owner.id);
  });

  it('is idempotent by request_id: a replay returns the first schedule, another payload is 409', async () => {
    const first = await create(owner, { request_id: 'sched-1' });
    const again = await create(owner, { request_id: 'sched-1' });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const other = await create(owner, { request_id: 'sched-1', input: 'something else' });
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('common.request_id_conflict');
    expect(await scheduleCount(owner.id)).toBe(1);
    await deleteAll(owner.id);
  });

  it('lists the caller’s schedules newest first with a cursor; an admin lists everyone’s', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) ids.push((await create(owner, { input: `list ${i}` })).body.id);
    const strangers = (await create(stranger, {})).body.id;
    const page1 = await ctx.http.get('/api/schedules?limit=2').set(auth(owner));
    expect(page1.body.items.map((s: { id: string }) => s.id)).toEqual([ids[2], ids[1]]);
    const page2 = await ctx.http
      .get(`/api/schedules?limit=2&cursor=${page1.body.next_cursor}`)
      .set(auth(owner));
    expect(page2.body).toEqual({ items: [expect.objectContaining({ id: ids[0] })], next_cursor: null });
    const all = await ctx.http.get('/api/schedules?limit=200').set(auth(admin));
    expect(all.body.items.map((s: { id: string }) => s.id)).toEqual(
      expect.arrayContaining([...ids, strangers]),
    );
    await deleteAll(owner.id);
    await deleteAll(stranger.id);
  });

  it('lists only the schedules of one agent when asked (agent_slug), still only the caller’s', async () => {
    const other = await ctx.newAgent(owner, { name: 'Digest writer' });
    const onDefault = (await create(owner, { input: 'default' })).body.id;
    const onOther = (await create(owner, { input: 'other' }, other.slug)).body.id;
    const strangers = (await create(stranger, {}, 'default-chatbot')).body.id;
    const ids = async (as: TestUser, slug: string) =>
      (await ctx.http.get(`/api/schedules?agent_slug=${slug}`).set(auth(as))).body.items.map(
        (s: { id: string }) => s.id,
      );
    expect(await ids(owner, other.slug)).toEqual([onOther]);
    expect(await ids(owner, 'default-chatbot')).toEqual([onDefault]);
    expect(await ids(admin, 'default-chatbot')).toEqual(expect.arrayContaining([onDefault, strangers]));
    expect(await ids(admin, 'default-chatbot')).not.toContain(onOther);
    expect(await ids(owner, 'no-such-agent')).toEqual([]);
    const bad = await ctx.http.get('/api/schedules?agent_slug=Not%20A%20Slug').set(auth(owner));
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('common.validation_failed');
    await deleteAll(owner.id);
    await deleteAll(stranger.id);
  });

  it('answers 404 for another user’s schedule on every route, and changes nothing', async () => {
    const schedule = (await create(owner, { input: 'mine' })).body;
    const routes = [
      ctx.http.get(`/api/schedules/${schedule.id}`),
      ctx.http.patch(`/api/schedules/${schedule.id}`).send({ enabled: false }),
      ctx.http.delete(`/api/schedules/${schedule.id}`),
      ctx.http.post(`/api/schedules/${schedule.id}/run`).send({}),
      ctx.http.get(`/api/schedules/${schedule.id}/occurrences`),
    ];
    for (const route of routes) {
      const res = await route.set(auth(stranger));
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('schedules.not_found');
    }
    expect((await ctx.http.get('/api/schedules').set(auth(stranger))).body.items).toEqual([]);
    const [row] = await ctx.dataSource.query(`SELECT enabled FROM schedules WHERE id = $1`, [schedule.id]);
    expect(row).toEqual({ enabled: true });
    expect(await occurrenceRows(ctx, schedule.id)).toEqual([]);
    const unknown = await ctx.http
      .get(`/api/schedules/00000000-0000-4000-8000-000000000000`)
      .set(auth(owner));
    expect(unknown.status).toBe(404);
    await deleteAll(owner.id);
  });

  it('lets an admin read, change and delete any schedule, but not run it or read its occurrences', async () => {
    const schedule = (await create(owner, { input: 'admin sees' })).body;
    expect((await ctx.http.get(`/api/schedules/${schedule.id}`).set(auth(admin))).status).toBe(200);
    expect((await ctx.http.post(`/api/schedules/${schedule.id}/run`).set(auth(admin)).send({})).status).toBe(
      404,
    );
    expect((await ctx.http.get(`/api/schedules/${schedule.id}/occurrences`).set(auth(admin))).status).toBe(
      404,
    );
    const patched = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(admin))
      .send({ enabled: false });
    expect(patched.body).toMatchObject({ enabled: false, next_run_at: null, owner_id: owner.id });
    expect((await ctx.http.delete(`/api/schedules/${schedule.id}`).set(auth(admin))).status).toBe(204);
    expect(await scheduleCount(owner.id)).toBe(0);
  });

  it('PATCH validates like create and re-times the next period from now', async () => {
    const schedule = (await create(owner, { cron: '0 8 * * *', timezone: 'UTC' })).body;
    const bad = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(owner))
      .send({ timezone: 'Nowhere/City' });
    expect(bad.status).toBe(400);
    expect(bad.body.details.fields).toEqual([expect.objectContaining({ field: 'timezone' })]);
    const tooOften = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(owner))
      .send({ cron: '* * * * *' });
    expect(tooOften.status).toBe(400);
    const res = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(owner))
      .send({ cron: '15 21 * * *', timezone: 'America/New_York', input: 'Evening' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      cron: '15 21 * * *',
      timezone: 'America/New_York',
      input: 'Evening',
      enabled: true,
    });
    const local = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(res.body.next_run_at));
    expect(local).toBe('21:15');
    const disabled = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(owner))
      .send({ enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, next_run_at: null });
    const enabled = await ctx.http
      .patch(`/api/schedules/${schedule.id}`)
      .set(auth(owner))
      .send({ enabled: true });
    expect(enabled.body.next_run_at).toBe(res.body.next_run_at);
    await deleteAll(owner.id);
  });

  it('runs now: a thread and a run of the owner, idempotent by request_id', async () => {
    const schedule = (await create(owner, { input: 'Right now please' })).body;
    const first = await ctx.http
      .post(`/api/schedules/${schedule.id}/run`)
      .set(auth(owner))
      .send({ request_id: 'now-1' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      occurrence_id: expect.any(String),
      run_id: expect.any(String),
      thread_id: expect.any(String),
    });
    const replay = await ctx.http
      .post(`/api/schedules/${schedule.id}/run`)
      .set(auth(owner))
      .send({ request_id: 'now-1' });
    expect(replay.body).toEqual(first.body);
    const concurrent = await Promise.all(
      [1, 2, 3].map(() =>
        ctx.http.post(`/api/schedules/${schedule.id}/run`).set(auth(owner)).send({ request_id: 'now-2' }),
      ),
    );
    expect(new Set(concurrent.map((res) => JSON.stringify([res.status, res.body]))).size).toBe(1);
    expect(concurrent[0].status).toBe(200);

    const run = await runRow(ctx, first.body.run_id);
    expect(run).toMatchObject({
      thread_id: first.body.thread_id,
      input: 'Right now please',
      status: 'queued',
    });
    const thread = await ctx.http.get(`/api/threads/${first.body.thread_id}`).set(auth(owner));
    expect(thread.status).toBe(200);
    const rows = await occurrenceRows(ctx, schedule.id);
    expect(rows).toHaveLength(2);
    expect(rows.every((row) => row.kind === 'manual' && row.status === 'started')).toBe(true);
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM runs WHERE user_id = $1 AND request_id LIKE 'schedule:%'`,
      [owner.id],
    );
    expect(count).toBe(2);
    const listed = await ctx.http.get(`/api/schedules/${schedule.id}/occurrences?limit=1`).set(auth(owner));
    expect(listed.body.items).toHaveLength(1);
    expect(listed.body.next_cursor).toEqual(expect.any(String));
    const read = await ctx.http.get(`/api/schedules/${schedule.id}`).set(auth(owner));
    expect(read.body.last_occurrence).toMatchObject({ status: 'started' });
    for (const id of [first.body.run_id, concurrent[0].body.run_id])
      await ctx.http.post(`/api/runs/${id}/cancel`).set(auth(owner));
    await deleteAll(owner.id);
  });

  it('deleting the agent deletes its schedules and their occurrences', async () => {
    const agent = await ctx.newAgent(owner);
    const schedule = (await create(owner, { input: 'About to vanish' }, agent.slug)).body;
    const now = await ctx.http.post(`/api/schedules/${schedule.id}/run`).set(auth(owner)).send({});
    expect(now.status).toBe(200);
    await ctx.http.post(`/api/runs/${now.body.run_id}/cancel`).set(auth(owner));
    const kept = (await create(owner, { input: 'Other agent' })).body;

    expect((await ctx.http.delete(`/api/agents/${agent.slug}`).set(auth(owner))).status).toBe(204);
    expect((await ctx.http.get(`/api/schedules/${schedule.id}`).set(auth(owner))).status).toBe(404);
    expect(await occurrenceRows(ctx, schedule.id)).toEqual([]);
    expect((await ctx.http.get(`/api/schedules/${kept.id}`).set(auth(owner))).status).toBe(200);
    await deleteAll(owner.id);
  });
});
