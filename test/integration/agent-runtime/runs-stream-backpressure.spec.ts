import { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import type { NewRunEvent } from '../../../src/modules/agent-runtime/events/run-event';
import { eventually } from '../../support/runs/run-event-rows';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { ServerConnections } from '../../support/runs/server-connections';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

/**
 * 12,000 events of ~2.5 KB: ~30 MB of frames, far more than what loopback socket buffers absorb, so a
 * server that writes without waiting for `drain` is left holding megabytes for a client that does not
 * read.
 */
const EVENTS = 12_000;
const BATCH = 1_000;
const PADDING = 'x'.repeat(2_500);
/** The socket's own high-water mark (16 KiB) plus a frame in flight, with room to spare. */
const BOUNDED_BYTES = 256 * 1024;

const delta = (i: number): NewRunEvent => ({
  type: 'message_delta',
  payload: { message_id: 'm-1', delta: `${i}:${PADDING}` },
});

/** Samples `read` until two samples 200 ms apart are equal: the server has written all it will. */
async function settled<T>(read: () => T): Promise<T> {
  let last = JSON.stringify(read());
  return eventually(
    async () => {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const now = JSON.stringify(read());
      const same = now === last;
      last = now;
      return { same, value: read() };
    },
    (sample) => sample.same,
    30_000,
  ).then((sample) => sample.value);
}

describe('run event streams wait for a slow client instead of buffering the replay', () => {
  let ctx: TestContext;
  let user: TestUser;
  let base: string;
  let connections: ServerConnections;

  beforeAll(async () => {
    ctx = await TestContext.start({ SSE_HEARTBEAT_SECONDS: '1' });
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
    connections = new ServerConnections(ctx.app.getHttpServer());
  });

  afterAll(async () => {
    connections.stop();
    await ctx.close();
  });

  it('keeps what it holds for a client that does not read bounded, then sends every event in order', async () => {
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'a long one' });
    const store = ctx.app.get(RunEventStore);
    for (let i = 0; i < EVENTS; i += BATCH) {
      const batch = Array.from({ length: BATCH }, (_, k) => delta(i + k));
      await store.append({ runId: run.run_id, events: batch, fence: 'unfenced' });
    }
    await store.append({
      runId: run.run_id,
      events: [{ type: 'done', payload: { status: 'completed' } }],
      fence: 'unfenced',
    });

    let read: () => void = () => undefined;
    const reading = new Promise<void>((resolve) => (read = resolve));
    const accepted = connections.next();
    const streaming = readSse(base, run.stream_url, auth(user), { paused: reading, timeoutMs: 120_000 });
    const { socket } = await accepted;

    // The client reads nothing: what the server holds for it in this process stays small.
    const held = await settled(() => ({ pending: socket.writableLength, written: socket.bytesWritten }));
    expect(held.written).toBeGreaterThan(0);
    expect(held.pending).toBeLessThan(BOUNDED_BYTES);

    read();
    const stream = await streaming;
    expect(stream.ended).toBe(true);
    // Event 1 is the run's `queued` status, then every delta in order, then `done`.
    expect(stream.frames.map((frame) => frame.id)).toEqual(
      Array.from({ length: EVENTS + 2 }, (_, i) => i + 1),
    );
    const deltas = stream.frames.slice(1, -1).map((frame) => frame.data.payload.delta as string);
    expect(deltas.map((text) => Number(text.slice(0, text.indexOf(':'))))).toEqual(
      Array.from({ length: EVENTS }, (_, i) => i),
    );
    expect(stream.frames.at(-1)).toMatchObject({ event: 'done', data: { payload: { status: 'completed' } } });
  });
});
