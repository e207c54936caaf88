import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse, type SseFrame } from '../../support/runs/sse-client';
import type { TestContext, TestUser } from '../../support/test-app';

const ids = (frames: SseFrame[]) => frames.map((f) => f.id);
const oneTo = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('run event streams: resume, replay, heartbeats', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let base: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ SSE_HEARTBEAT_SECONDS: '1' }));
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
  });

  afterAll(() => close());

  /** A run that writes a file, then answers: two model calls, one tool call. */
  async function toolRun(): Promise<{ runId: string; url: string; threadId: string }> {
    const threadId = await newThread(ctx, user);
    fake.script(
      {
        text: 'Writing it.',
        toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'a.md', content: 'A' } }],
      },
      { text: 'Written.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'write a.md' });
    return { runId: run.run_id, url: run.stream_url, threadId };
  }

  it.each([
    [
      'the Last-Event-ID header',
      (url: string, last: number) => ({ url, headers: { 'last-event-id': `${last}` } }),
    ],
    ['?after=', (url: string, last: number) => ({ url: `${url}?after=${last}`, headers: {} })],
  ])('resumes after a cut with %s: every seq exactly once, ending with done', async (_, resume) => {
    const { runId, url } = await toolRun();

    const first = await readSse(base, url, auth(user), { until: (f) => f.event === 'tool_call' });
    expect(first.ended).toBe(false);
    expect(first.frames.at(-1)?.event).toBe('tool_call');
    const last = first.frames.at(-1)!.id;

    const again = resume(url, last);
    const second = await readSse(base, again.url, { ...auth(user), ...again.headers });
    expect(second.status).toBe(200);
    expect(second.ended).toBe(true);
    expect(second.frames[0]?.id).toBe(last + 1);

    const union = [...first.frames, ...second.frames];
    expect(ids(union)).toEqual(oneTo(union.length));
    expect(union.at(-1)).toMatchObject({ event: 'done', data: { payload: { status: 'completed' } } });
    // What the client saw is exactly what the table holds.
    const stored = await storedEvents(ctx, runId);
    expect(union.map((f) => [f.id, f.event])).toEqual(stored.map((e) => [e.seq, e.type]));
    expect(
      union.every((f) => f.data.run_id === runId && f.data.seq === f.id && f.data.type === f.event),
    ).toBe(true);
  });

  it('replays the whole run to a client that connects after it ended, then closes', async () => {
    const { runId, url } = await toolRun();
    await waitForStatus(ctx, runId, isTerminal);

    const replay = await readSse(base, url, auth(user), { timeoutMs: 5_000 });
    expect(replay.ended).toBe(true);
    const stored = await storedEvents(ctx, runId);
    expect(stored.length).toBeGreaterThan(8);
    expect(ids(replay.frames)).toEqual(oneTo(stored.length));
    expect(replay.frames.map((f) => f.event)).toEqual(stored.map((e) => e.type));
    expect(replay.frames.map((f) => f.data.payload)).toEqual(stored.map((e) => e.payload));
    expect(replay.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });
  });

  it('closes with no frames when resuming after done, and replays only the tail after an earlier id', async () => {
    const { runId, url } = await toolRun();
    const full = await readSse(base, url, auth(user));
    expect(full.ended).toBe(true);
    const done = full.frames.at(-1)!;
    expect(done.event).toBe('done');
    await waitForStatus(ctx, runId, isTerminal);

    const afterDone = await readSse(
      base,
      url,
      { ...auth(user), 'last-event-id': `${done.id}` },
      { timeoutMs: 5_000 },
    );
    expect(afterDone).toMatchObject({ status: 200, ended: true, frames: [] });
    const afterDoneQuery = await readSse(base, `${url}?after=${done.id}`, auth(user), { timeoutMs: 5_000 });
    expect(afterDoneQuery).toMatchObject({ status: 200, ended: true, frames: [] });

    const tail = await readSse(
      base,
      url,
      { ...auth(user), 'last-event-id': `${done.id - 3}` },
      { timeoutMs: 5_000 },
    );
    expect(tail.ended).toBe(true);
    expect(ids(tail.frames)).toEqual([done.id - 2, done.id - 1, done.id]);
    expect(tail.frames.map((f) => f.event)).toEqual(full.frames.slice(-3).map((f) => f.event));
  });

  it('refuses a malformed resume point with 400 and another user’s run with 404', async () => {
    const { runId, url } = await toolRun();
    await waitForStatus(ctx, runId, isTerminal);

    for (const [path, headers] of [
      [url, { 'last-event-id': 'abc' }],
      [url, { 'last-event-id': '-1' }],
      [`${url}?after=abc`, {}],
    ] as const) {
      const res = await readSse(base, path, { ...auth(user), ...headers }, { timeoutMs: 5_000 });
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body!)).toMatchObject({ status_code: 400, code: 'common.validation_failed' });
      expect(res.frames).toEqual([]);
    }

    const stranger = await ctx.newUser();
    const foreign = await readSse(base, url, auth(stranger), { timeoutMs: 5_000 });
    expect(foreign.status).toBe(404);
    expect(JSON.parse(foreign.body!)).toMatchObject({ code: 'runs.not_found' });
    const anonymous = await readSse(base, url, {}, { timeoutMs: 5_000 });
    expect(anonymous.status).toBe(401);
  });

  it('sends heartbeat comments while the run is inside a long model call', async () => {
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({ text: 'Finally.' });
    const run = await startRun(ctx, user, threadId, { input: 'take your time' });
    await hold.arrived;
    const releaser = setTimeout(() => hold.release(), 2_500);
    try {
      const stream = await readSse(base, run.stream_url, auth(user), { timeoutMs: 15_000 });
      expect(stream.ended).toBe(true);
      expect(stream.comments).toBeGreaterThanOrEqual(2);
      expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });
      expect(ids(stream.frames)).toEqual(oneTo(stream.frames.length));
    } finally {
      clearTimeout(releaser);
      hold.release();
    }
  });

  it('closes a stream resumed past the end of a live run once the run ends', async () => {
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({ text: 'Short.' });
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    await hold.arrived;
    const reading = readSse(base, `${run.stream_url}?after=999`, auth(user), { timeoutMs: 10_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    hold.release();
    const stream = await reading;
    expect(stream).toMatchObject({ status: 200, ended: true, frames: [] });
  });

  it('follows a live run from a second client too (two streams, same frames)', async () => {
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({ text: 'Both of you see this.' });
    const run = await startRun(ctx, user, threadId, { input: 'hello' });
    await hold.arrived;
    const a = readSse(base, run.stream_url, auth(user));
    const b = readSse(base, run.stream_url, auth(user));
    await new Promise((resolve) => setTimeout(resolve, 300));
    hold.release();
    const [sa, sb] = await Promise.all([a, b]);
    expect(sa.ended && sb.ended).toBe(true);
    expect(sa.frames.map((f) => f.data)).toEqual(sb.frames.map((f) => f.data));
    expect(ids(sa.frames)).toEqual(oneTo(sa.frames.length));
    expect(sa.frames.find((f) => f.event === 'message')?.data.payload.content).toBe('Both of you see this.');
  });
});
