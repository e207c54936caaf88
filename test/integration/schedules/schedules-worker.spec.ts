import { Clock } from '../../../src/modules/schedules/firing/clock';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { occurrenceRows, type OccurrenceRow } from '../../support/schedules';
import type { TestContext, TestUser } from '../../support/test-app';

describe('the scheduler in a worker process (APP_ROLE=all, its own timer)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let now = new Date();

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ SCHEDULE_TICK_SECONDS: '1' }));
    user = await ctx.newUser();
    // The clock the scheduler and the routes read, driven here; the timer itself runs for real.
    jest.spyOn(ctx.app.get(Clock, { strict: false }), 'now').mockImplementation(() => new Date(now));
  });

  afterAll(() => close());

  beforeEach(() => fake.clearScript());

  const createSchedule = async (slug: string, input: string) => {
    const res = await ctx.http
      .post(`/api/agents/${slug}/schedules`)
      .set(auth(user))
      .send({ cron: '* * * * *', timezone: 'UTC', input });
    if (res.status !== 201)
      throw new Error(`schedule not created: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as { id: string };
  };
  /** The worker's clock moved past the schedule's next period (its timer keeps ticking on its own). */
  const makeDue = async (scheduleId: string) => {
    const [row] = await ctx.dataSource.query<{ next_run_at: Date }[]>(
      `SELECT next_run_at FROM schedules WHERE id = $1`,
      [scheduleId],
    );
    now = new Date(row.next_run_at.getTime() + 1_000);
  };
  const waitForOccurrences = async (scheduleId: string, count: number): Promise<OccurrenceRow[]> => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows = (await occurrenceRows(ctx, scheduleId)).filter((row) => row.status !== 'pending');
      if (rows.length >= count) return rows;
      if (Date.now() > deadline)
        throw new Error(
          `only ${rows.length} occurrences: ${JSON.stringify(await occurrenceRows(ctx, scheduleId))} ${JSON.stringify(await ctx.dataSource.query(`SELECT enabled, next_run_at, now() FROM schedules WHERE id = $1`, [scheduleId]))}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };

  it('fires a due schedule; its run completes on the worker like any run', async () => {
    fake.script({ text: 'Digest ready.' });
    const schedule = await createSchedule('default-chatbot', 'Write the daily digest');
    await makeDue(schedule.id);
    const [occurrence] = await waitForOccurrences(schedule.id, 1);
    expect(occurrence).toMatchObject({ status: 'started', kind: 'scheduled' });
    expect(await waitForStatus(ctx, occurrence.run_id!, (s) => s === 'completed')).toBe('completed');
    const messages = await ctx.http.get(`/api/threads/${occurrence.thread_id}/messages`).set(auth(user));
    expect(messages.body.items.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'Write the daily digest'],
      ['assistant', 'Digest ready.'],
    ]);
    await ctx.http.patch(`/api/schedules/${schedule.id}`).set(auth(user)).send({ enabled: false });
  });

  it('parks a scheduled run that asks for an approval, and skips the next period while it waits', async () => {
    const { slug } = await ctx.newAgent(user, {
      config: {
        tools: ['write_file'],
        approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
      },
    });
    fake.script({
      toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'digest.md', content: 'x' } }],
    });
    const schedule = await createSchedule(slug, 'Write the digest file');
    await makeDue(schedule.id);
    const [first] = await waitForOccurrences(schedule.id, 1);
    expect(first.status).toBe('started');
    expect(await waitForStatus(ctx, first.run_id!, (s) => s === 'waiting')).toBe('waiting');
    const point = await ctx.http.get(`/api/runs/${first.run_id}/waiting-point`).set(auth(user));
    expect(point.body).toMatchObject({ kind: 'approval', tool_call_id: 'call_w', status: 'open' });

    await makeDue(schedule.id);
    const rows = await waitForOccurrences(schedule.id, 2);
    expect(rows.map((row) => [row.status, row.reason])).toEqual([
      ['started', null],
      ['skipped', 'previous_unfinished'],
    ]);
    await ctx.http.patch(`/api/schedules/${schedule.id}`).set(auth(user)).send({ enabled: false });
    await ctx.http.post(`/api/runs/${first.run_id}/cancel`).set(auth(user));
  });
});
