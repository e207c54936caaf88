import { connect, type Socket } from 'node:net';
import { RunEvents } from '../../../src/modules/agent-runtime/events/run-events';
import type { NewRunEvent } from '../../../src/modules/agent-runtime/events/run-event';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { closedOnServer, ServerConnections } from '../../support/runs/server-connections';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

/** ~30 MB of frames: far more than loopback socket buffers absorb for a client that never reads. */
const EVENTS = 12_000;
const BATCH = 1_000;
const PADDING = 'x'.repeat(2_500);

const delta = (i: number): NewRunEvent => ({
  type: 'message_delta',
  payload: { message_id: 'm-1', delta: `${i}:${PADDING}` },
});

/** A raw TCP client that sends the request and then never reads a byte. */
function neverReadingClient(base: string, path: string, token: string): Socket {
  const { hostname, port } = new URL(base);
  const socket = connect(Number(port), hostname);
  socket.pause();
  socket.write(
    `GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n` +
      `Authorization: Bearer ${token}\r\n\r\n`,
  );
  return socket;
}

async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('run event streams close a client that stops reading', () => {
  let ctx: TestContext;
  let user: TestUser;
  let base: string;
  let connections: ServerConnections;
  const clients: Socket[] = [];

  beforeAll(async () => {
    ctx = await TestContext.start({
      SSE_WRITE_TIMEOUT_SECONDS: '1',
      SSE_MAX_STREAMS_PER_USER: '1',
      SSE_HEARTBEAT_SECONDS: '1',
    });
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
    connections = new ServerConnections(ctx.app.getHttpServer());
  });

  afterAll(async () => {
    for (const client of clients) client.destroy();
    connections.stop();
    await ctx.close();
  });

  it('closes the stream of a client that never reads within the write timeout and frees its slot', async () => {
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'a long one' });
    const accepted = connections.next();
    clients.push(neverReadingClient(base, run.stream_url, user.token));
    const exchange = await accepted;
    // Wait until the stream holds its slot (the response has started).
    while (!exchange.res.headersSent) await new Promise((resolve) => setTimeout(resolve, 20));

    // At the cap: another stream of this user is refused while the silent one is open.
    const refused = await readSse(base, run.stream_url, auth(user));
    expect(refused.status).toBe(429);

    // Published as a run's events are: the live stream writes them as they come.
    const events = ctx.app.get(RunEvents);
    for (let i = 0; i < EVENTS; i += BATCH) {
      await events.emit({
        runId: run.run_id,
        events: Array.from({ length: BATCH }, (_, k) => delta(i + k)),
        fence: 'unfenced',
      });
    }
    await within(closedOnServer(exchange), 15_000, 'the server closing the silent stream');
    expect(exchange.socket.destroyed).toBe(true);

    // Its slot is free again: a new stream opens and reads the events.
    const next = await readSse(base, run.stream_url, auth(user), { until: (frame) => frame.id >= 3 });
    expect(next.status).toBe(200);
    expect(next.frames.map((frame) => frame.id).slice(0, 3)).toEqual([1, 2, 3]);
  });
});
