import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { eventRows, runRow } from '../../support/runs/run-rows';
import { listeningUrl, readSse, type SseFrame } from '../../support/runs/sse-client';
import type { TestContext, TestUser } from '../../support/test-app';

describe('runs HTTP API: cancelling runs', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let base: string;

  const cancel = (runId: string) => ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user));
  const stream = (runId: string, until?: (frame: SseFrame) => boolean) =>
    readSse(base, `/api/runs/${runId}/events`, auth(user), { until });
  const statuses = (frames: SseFrame[]) =>
    frames
      .filter((f) => f.event === 'status' || f.event === 'done')
      .map((f) => `${f.event}:${String(f.data.payload.status)}`);
  /** Starts a run whose first model call is held; resolves once the run is inside that call. */
  const startHeld = async (threadId: string, input: string) => {
    const hold = fake.holdNext();
    const run = await startRun(ctx, user, threadId, { input });
    await hold.arrived;
    return { ...run, release: hold.release };
  };

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
  });

  afterAll(() => close?.());

  it('cancels a queued run at once, and its stream replays the cancellation and done', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'First done.' });
    const first = await startHeld(threadId, 'Hold the thread');
    const queued = await startRun(ctx, user, threadId, { input: 'Never mind' });
    expect(queued.queue_position).toBe(1);

    const res = await cancel(queued.run_id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: queued.run_id, status: 'cancelled', started_at: null });
    expect(res.body.finished_at).toEqual(expect.any(String));
    expect(await runRow(ctx, queued.run_id)).toMatchObject({ status: 'cancelled', started_at: null });

    const replay = await stream(queued.run_id);
    expect(replay.ended).toBe(true);
    expect(replay.frames.map((f) => f.id)).toEqual([1, 2, 3]);
    expect(statuses(replay.frames)).toEqual(['status:queued', 'status:cancelled', 'done:cancelled']);

    // The running run is not affected, and the cancelled one never reaches the model.
    const requestsBefore = fake.requests.length;
    first.release();
    expect(await waitForStatus(ctx, first.run_id, isTerminal)).toBe('completed');
    expect(fake.requests).toHaveLength(requestsBefore);
    expect((await runRow(ctx, queued.run_id)).started_at).toBeNull();
  });

  it('cancels a running run inside a model call, ends its stream with done cancelled and starts the next run', async () => {
    const threadId = await newThread(ctx, user);
    const running = await startHeld(threadId, 'Think for a long time');
    const next = await startRun(ctx, user, threadId, { input: 'Next question' });
    expect(next.queue_position).toBe(1);
    fake.script({ text: 'Next answer.' });
    const following = stream(running.run_id);

    const res = await cancel(running.run_id);
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(running.run_id);
    expect(['cancel_requested', 'cancelled']).toContain(res.body.status);
    expect(await waitForStatus(ctx, running.run_id, isTerminal, 10_000)).toBe('cancelled');

    const live = await following;
    expect(live.ended).toBe(true);
    expect(live.frames.at(-1)).toMatchObject({ event: 'done', data: { payload: { status: 'cancelled' } } });
    expect(statuses(live.frames)).toEqual([
      'status:queued',
      'status:running',
      'status:cancel_requested',
      'status:cancelled',
      'done:cancelled',
    ]);
    const row = await runRow(ctx, running.run_id);
    expect(row.finished_at).not.toBeNull();
    expect((await eventRows(ctx, running.run_id)).at(-1)).toMatchObject({ type: 'done' });

    // The run queued behind it takes the thread.
    expect(await waitForStatus(ctx, next.run_id, isTerminal)).toBe('completed');
    const nextRow = await runRow(ctx, next.run_id);
    expect(nextRow.started_at!.getTime()).toBeGreaterThanOrEqual(row.finished_at!.getTime());
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.body.items.at(-1)).toMatchObject({
      run_id: next.run_id,
      role: 'assistant',
      content: 'Next answer.',
    });
    running.release(); // the abandoned model call ends; nothing listens any more
  });

  it('refuses to cancel a finished run with 409 runs.already_finished and leaves it as it was', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'All done.' });
    const run = await startRun(ctx, user, threadId, { input: 'Quick one' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const before = await runRow(ctx, run.run_id);
    const eventsBefore = await eventRows(ctx, run.run_id);

    const res = await cancel(run.run_id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'runs.already_finished', details: { status: 'completed' } });
    expect(await runRow(ctx, run.run_id)).toEqual(before);
    expect(await eventRows(ctx, run.run_id)).toEqual(eventsBefore);

    // A cancelled run is finished too.
    const holder = await startHeld(threadId, 'Hold it');
    const behind = await startRun(ctx, user, threadId, { input: 'Behind' });
    expect((await cancel(behind.run_id)).status).toBe(200);
    const again = await cancel(behind.run_id);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'runs.already_finished', details: { status: 'cancelled' } });
    fake.script({ text: 'Held done.' });
    holder.release();
    expect(await waitForStatus(ctx, holder.run_id, isTerminal)).toBe('completed');
  });

  it('keeps running a run whose stream client disconnects', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'Still here.' });
    const run = await startHeld(threadId, 'Do not stop');
    const cut = await stream(run.run_id, (f) => f.event === 'status' && f.data.payload.status === 'running');
    expect(cut.ended).toBe(false);
    expect(statuses(cut.frames)).toEqual(['status:queued', 'status:running']);
    // Give the server time to notice the disconnection before the run goes on.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await runRow(ctx, run.run_id)).status).toBe('running');

    run.release();
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const replay = await stream(run.run_id);
    expect(statuses(replay.frames).slice(-2)).toEqual(['status:completed', 'done:completed']);
    const last = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(last.body.items.map((m: { content: string }) => m.content)).toEqual([
      'Do not stop',
      'Still here.',
    ]);
  });
});
