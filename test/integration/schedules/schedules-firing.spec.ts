import { OccurrenceFiring } from '../../../src/modules/schedules/firing/occurrence-firing';
import { ScheduleClaims } from '../../../src/modules/schedules/firing/schedule-claims';
import { auth } from '../../support/runs/run-helpers';
import { runRow } from '../../support/runs/run-rows';
import { ManualClock, occurrenceRows, schedulers } from '../../support/schedules';
import { TestContext, type TestUser } from '../../support/test-app';
import { databaseUrl } from '../../support/test-env';

const MINUTE = 60_000;

describe('the scheduler (claims in PostgreSQL, an injected clock)', () => {
  let ctx: TestContext;
  let user: TestUser;
  /** Two more applications on the same database: their own Nest container, DataSource and pool. */
  let peers: TestContext[] = [];

  beforeAll(async () => {
    // No worker consumes runs here: a started run stays queued (active) until the test cancels it.
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    peers = await Promise.all(
      [1, 2].map(() => TestContext.start({ APP_ROLE: 'api', DATABASE_URL: databaseUrl(ctx.databaseName) })),
    );
    user = await ctx.newUser();
  });

  afterAll(async () => {
    for (const peer of peers) await peer.close();
    await ctx?.close();
  });

  const createSchedule = async (as: TestUser, slug: string, body: object) => {
    const res = await ctx.http
      .post(`/api/agents/${slug}/schedules`)
      .set(auth(as))
      .send({ timezone: 'UTC', input: 'Daily digest', ...body });
    if (res.status !== 201)
      throw new Error(`schedule not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string; next_run_at: string };
  };
  const cancel = async (as: TestUser, runId: string) => {
    const res = await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(as));
    expect(res.status).toBe(200);
  };

  it('fires each of 200 periods exactly once with three schedulers of three applications racing', async () => {
    const schedule = await createSchedule(user, 'default-chatbot', { cron: '* * * * *' });
    const first = new Date(schedule.next_run_at);
    const clock = new ManualClock(first);
    const racing = [ctx, ...peers].map((app) => schedulers(app, clock, 1)[0]);
    let fired = 0;
    const perInstance = [0, 0, 0];
    for (let period = 0; period < 200; period += 1) {
      // Anywhere inside the minute: every scheduler sees the same due period.
      clock.set(new Date(first.getTime() + period * MINUTE + (period % 7) * 5_000));
      const counts = await Promise.all(racing.map((tick) => tick.run()));
      fired += counts.reduce((a, b) => a + b, 0);
      counts.forEach((count, i) => (perInstance[i] += count));
      const [latest] = (await occurrenceRows(ctx, schedule.id)).slice(-1);
      if (latest?.run_id) await cancel(user, latest.run_id);
    }

    const rows = await occurrenceRows(ctx, schedule.id);
    expect(fired).toBe(200);
    // They did race: periods went to more than one of them (measured: 137, 34 and 29 of 200).
    expect(perInstance.filter((count) => count > 0).length).toBeGreaterThan(1);
    expect(rows).toHaveLength(200);
    expect(rows.map((row) => row.scheduled_for.getTime())).toEqual(
      Array.from({ length: 200 }, (_, i) => first.getTime() + i * MINUTE),
    );
    // Each run was cancelled before the next period: every occurrence started its own run and thread.
    expect(rows.every((row) => row.status === 'started' && row.run_id !== null)).toBe(true);
    expect(new Set(rows.map((row) => row.run_id)).size).toBe(200);
    expect(new Set(rows.map((row) => row.thread_id)).size).toBe(200);
    const [runs] = await ctx.dataSource.query<[{ runs: number; threads: number }]>(
      `SELECT count(*)::int AS runs, count(DISTINCT thread_id)::int AS threads FROM runs
        WHERE request_id LIKE 'schedule:%' AND user_id = $1`,
      [user.id],
    );
    expect(runs).toEqual({ runs: 200, threads: 200 });
  }, 180_000);

  it('coalesces the periods missed during a 2-hour outage into one occurrence', async () => {
    const schedule = await createSchedule(user, 'default-chatbot', { cron: '*/5 * * * *' });
    const first = new Date(schedule.next_run_at);
    const now = new Date(first.getTime() + 2 * 60 * MINUTE + 2 * MINUTE);
    const clock = new ManualClock(now);
    const [tick] = schedulers(ctx, clock, 1);
    await tick.run();
    await tick.run(); // the same instant again: nothing more is due

    const rows = await occurrenceRows(ctx, schedule.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      status: 'started',
      scheduled_for: new Date(first.getTime() + 120 * MINUTE),
    });
    const read = await ctx.http.get(`/api/schedules/${schedule.id}`).set(auth(user));
    expect(read.body.next_run_at).toBe(new Date(first.getTime() + 125 * MINUTE).toISOString());
    expect(read.body.last_occurrence).toMatchObject({
      id: rows[0].id,
      status: 'started',
      run_id: rows[0].run_id,
    });
    await cancel(user, rows[0].run_id!);
  });

  it('skips a period whose previous run is still active (previous_unfinished), then starts again', async () => {
    const schedule = await createSchedule(user, 'default-chatbot', { cron: '0 * * * *', input: 'Long job' });
    const first = new Date(schedule.next_run_at);
    const clock = new ManualClock(first);
    const [tick] = schedulers(ctx, clock, 1);
    await tick.run();
    clock.set(new Date(first.getTime() + 60 * MINUTE));
    await tick.run();
    let rows = await occurrenceRows(ctx, schedule.id);
    expect(rows.map((row) => [row.status, row.reason])).toEqual([
      ['started', null],
      ['skipped', 'previous_unfinished'],
    ]);
    expect(rows[1].run_id).toBeNull();
    expect((await runRow(ctx, rows[0].run_id!)).status).toBe('queued');

    await cancel(user, rows[0].run_id!);
    clock.set(new Date(first.getTime() + 120 * MINUTE));
    await tick.run();
    rows = await occurrenceRows(ctx, schedule.id);
    expect(rows.map((row) => row.status)).toEqual(['started', 'skipped', 'started']);
    const run = await runRow(ctx, rows[2].run_id!);
    expect(run).toMatchObject({ input: 'Long job', thread_id: rows[2].thread_id, status: 'queued' });
    await cancel(user, run.id);

    const listed = await ctx.http.get(`/api/schedules/${schedule.id}/occurrences`).set(auth(user));
    expect(listed.body.items.map((item: { status: string }) => item.status)).toEqual([
      'started',
      'skipped',
      'started',
    ]);
    expect(listed.body.items[1]).toEqual({
      id: rows[1].id,
      scheduled_for: rows[1].scheduled_for.toISOString(),
      status: 'skipped',
      reason: 'previous_unfinished',
      created_at: expect.any(String),
    });
  });

  it('makes a thread of the owner titled from the schedule, and a run as POST /threads/:id/runs would', async () => {
    const schedule = await createSchedule(user, 'default-chatbot', {
      cron: '30 6 * * *',
      timezone: 'Europe/Berlin',
      input: 'Morning summary of the inbox',
    });
    const clock = new ManualClock(new Date(schedule.next_run_at));
    const [tick] = schedulers(ctx, clock, 1);
    await tick.run();
    const [row] = await occurrenceRows(ctx, schedule.id);
    const thread = await ctx.http.get(`/api/threads/${row.thread_id}`).set(auth(user));
    expect(thread.status).toBe(200);
    expect(thread.body).toMatchObject({ agent_slug: 'default-chatbot' });
    expect(thread.body.title).toMatch(
      /^Scheduled: Morning summary of the inbox \(\d{4}-\d\d-\d\d 06:30 Europe\/Berlin\)$/,
    );
    const run = await ctx.http.get(`/api/runs/${row.run_id}`).set(auth(user));
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ id: row.run_id, thread_id: row.thread_id });
    expect((await runRow(ctx, row.run_id!)).request_id).toBe(`schedule:${row.id}`);
    const messages = await ctx.http.get(`/api/threads/${row.thread_id}/messages`).set(auth(user));
    expect(messages.body.items).toEqual([
      expect.objectContaining({ role: 'user', content: 'Morning summary of the inbox' }),
    ]);
    await cancel(user, row.run_id!);
  });

  it('skips with agent_unavailable once the owner lost access to the agent', async () => {
    const owner = await ctx.newUser();
    const reader = await ctx.newUser();
    const agent = await ctx.newAgent(owner, {
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [owner.id, reader.id] } },
    });
    const schedule = await createSchedule(reader, agent.slug, { cron: '0 * * * *' });
    const unshare = await ctx.http
      .patch(`/api/agents/${agent.slug}`)
      .set(auth(owner))
      .send({ share_config: { version: 2, read_scope: { level: 'users', user_ids: [owner.id] } } });
    expect(unshare.status).toBe(200);

    const clock = new ManualClock(new Date(schedule.next_run_at));
    const [tick] = schedulers(ctx, clock, 1);
    await tick.run();
    const rows = await occurrenceRows(ctx, schedule.id);
    expect(rows).toEqual([
      expect.objectContaining({
        status: 'skipped',
        reason: 'agent_unavailable',
        run_id: null,
        thread_id: null,
      }),
    ]);
    const [{ count }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS count FROM threads WHERE user_id = $1`,
      [reader.id],
    );
    expect(count).toBe(0);
    const now = await ctx.http.post(`/api/schedules/${schedule.id}/run`).set(auth(reader)).send({});
    expect(now.status).toBe(409);
    expect(now.body).toMatchObject({
      code: 'schedules.not_started',
      details: { reason: 'agent_unavailable' },
    });
  });

  it('disables the schedules of an owner an admin disables, at once: no period fires', async () => {
    const owner = await ctx.newUser();
    const admin = await ctx.newUser({ role: 'admin' });
    const schedule = await createSchedule(owner, 'default-chatbot', { cron: '0 * * * *' });
    const disable = await ctx.http.patch(`/api/users/${owner.id}`).set(auth(admin)).send({ disabled: true });
    expect(disable.status).toBe(200);
    const [row] = await ctx.dataSource.query(`SELECT enabled, next_run_at FROM schedules WHERE id = $1`, [
      schedule.id,
    ]);
    expect(row).toEqual({ enabled: false, next_run_at: null });
    const read = await ctx.http.get(`/api/schedules/${schedule.id}`).set(auth(admin));
    expect(read.body).toMatchObject({ enabled: false, next_run_at: null });

    const [tick] = schedulers(
      ctx,
      new ManualClock(new Date(new Date(schedule.next_run_at).getTime() + 1_000)),
      1,
    );
    await tick.run();
    expect(await occurrenceRows(ctx, schedule.id)).toEqual([]);
  });

  it('disables the schedule when the owner turns out disabled at firing (owner_disabled)', async () => {
    const owner = await ctx.newUser();
    const schedule = await createSchedule(owner, 'default-chatbot', { cron: '0 * * * *' });
    // Disabled by another path than the users API (no hook ran): the firing checks the account itself.
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [owner.id]);

    const clock = new ManualClock(new Date(schedule.next_run_at));
    const [tick] = schedulers(ctx, clock, 1);
    await tick.run();
    expect(await occurrenceRows(ctx, schedule.id)).toEqual([
      expect.objectContaining({ status: 'skipped', reason: 'owner_disabled', run_id: null }),
    ]);
    const [row] = await ctx.dataSource.query(`SELECT enabled, next_run_at FROM schedules WHERE id = $1`, [
      schedule.id,
    ]);
    expect(row).toEqual({ enabled: false, next_run_at: null });
    clock.set(new Date(new Date(schedule.next_run_at).getTime() + 180 * MINUTE));
    await tick.run();
    expect(await occurrenceRows(ctx, schedule.id)).toHaveLength(1);
  });

  it('fires an occurrence a dead worker left pending once, and a retried fire makes no second run', async () => {
    const schedule = await createSchedule(user, 'default-chatbot', { cron: '0 * * * *' });
    const clock = new ManualClock(new Date(schedule.next_run_at));
    // The claim alone (its worker dies before firing): the occurrence is pending and not listed.
    const [claimed] = await ctx.app.get(ScheduleClaims, { strict: false }).claimDue(clock.now(), 10);
    expect(claimed.scheduleId).toBe(schedule.id);
    const hidden = await ctx.http.get(`/api/schedules/${schedule.id}/occurrences`).set(auth(user));
    expect(hidden.body.items).toEqual([]);

    const firing = ctx.app.get(OccurrenceFiring, { strict: false });
    const [a, b] = await Promise.all([firing.fire(claimed.occurrenceId), firing.fire(claimed.occurrenceId)]);
    expect([a, b].filter((outcome) => outcome !== null)).toHaveLength(1);
    expect(await firing.fire(claimed.occurrenceId)).toBeNull();
    const [started] = await occurrenceRows(ctx, schedule.id);
    expect(started.status).toBe('started');

    // A worker that made the thread and the run but died before recording it: the fire is retried.
    await ctx.dataSource.query(
      `UPDATE schedule_occurrences SET status = 'pending', run_id = NULL, thread_id = NULL WHERE id = $1`,
      [claimed.occurrenceId],
    );
    const retried = await firing.fire(claimed.occurrenceId);
    expect(retried?.occurrence).toMatchObject({
      status: 'started',
      runId: started.run_id,
      threadId: started.thread_id,
    });
    const [{ runs, threads }] = await ctx.dataSource.query(
      `SELECT count(*)::int AS runs, count(DISTINCT thread_id)::int AS threads FROM runs WHERE request_id = $1`,
      [`schedule:${claimed.occurrenceId}`],
    );
    expect({ runs, threads }).toEqual({ runs: 1, threads: 1 });
    await cancel(user, started.run_id!);
  });

  it('fires a burst of 120 schedules due at the same minute in one tick, claim batch after batch', async () => {
    const owners = await Promise.all(Array.from({ length: 6 }, () => ctx.newUser()));
    const ids: string[] = [];
    let due: Date | null = null;
    for (const owner of owners)
      for (let i = 0; i < 20; i += 1) {
        const schedule = await createSchedule(owner, 'default-chatbot', {
          cron: '17 8 * * *',
          input: `burst ${i}`,
        });
        ids.push(schedule.id);
        due ??= new Date(schedule.next_run_at);
      }
    const clock = new ManualClock(new Date(due!.getTime() + 10_000));
    // One scheduler, one tick: more than one claim batch (50) is due.
    expect(await schedulers(ctx, clock, 1)[0].run()).toBeGreaterThanOrEqual(120);

    const [counts] = await ctx.dataSource.query<[{ occurrences: number; schedules: number; runs: number }]>(
      `SELECT count(*)::int AS occurrences, count(DISTINCT schedule_id)::int AS schedules,
              count(DISTINCT run_id)::int AS runs
         FROM schedule_occurrences WHERE schedule_id = ANY($1::uuid[]) AND status = 'started'`,
      [ids],
    );
    expect(counts).toEqual({ occurrences: 120, schedules: 120, runs: 120 });
  }, 120_000);
});
