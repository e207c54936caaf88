import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../src/api/api-error';
import { RunStream, type RunEvent, type RunStreamOptions } from '../src/stream/run-stream';

type EndReason = Parameters<NonNullable<RunStreamOptions['onEnd']>>[0];

/** One request the stream made, and the body the test writes to when it answered with a stream. */
interface Connection {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** Writes raw `text/event-stream` text or bytes. */
  write(chunk: string | Uint8Array): void;
  /** Writes events as the server does: `id`, `event` and `data` of each. */
  send(...events: RunEvent[]): void;
  /** Ends the body normally (the server closed the connection). */
  end(): void;
  /** Fails the body (a network error). */
  fail(): void;
}

type Answer = { status: number; headers?: Record<string, string>; body?: unknown } | 'stream';

/**
 * A fake `fetch`: each call answers with the next queued answer (a stream when none is queued). A streamed
 * body is a ReadableStream the test drives; aborting the request's signal errors it, as a real fetch does.
 */
function fakeServer() {
  const connections: Connection[] = [];
  const answers: Answer[] = [];
  const encoder = new TextEncoder();
  const fetch = vi.fn<typeof globalThis.fetch>((input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const signal = init!.signal!;
    const headers = { ...(init!.headers as Record<string, string>) };
    const answer = answers.shift() ?? 'stream';
    if (answer !== 'stream') {
      connections.push({
        url,
        headers,
        signal,
        write: () => undefined,
        send: () => undefined,
        end: () => undefined,
        fail: () => undefined,
      });
      return Promise.resolve(
        new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
          status: answer.status,
          headers: { 'content-type': 'application/json', ...answer.headers },
        }),
      );
    }
    let open = true;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
    });
    const fail = (reason: unknown) => {
      if (!open) return;
      open = false;
      controller.error(reason);
    };
    signal.addEventListener('abort', () =>
      fail(new DOMException('The operation was aborted.', 'AbortError')),
    );
    const write = (chunk: string | Uint8Array) => {
      if (open) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
    };
    connections.push({
      url,
      headers,
      signal,
      write,
      send: (...events) => {
        for (const event of events)
          write(`id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
      },
      end: () => {
        if (!open) return;
        open = false;
        controller.close();
      },
      fail: () => fail(new TypeError('network error')),
    });
    return Promise.resolve(
      new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
    );
  });
  return {
    fetch,
    connections,
    /** Queues the answers of the next requests, in order. */
    answer: (...next: Answer[]) => answers.push(...next),
  };
}

function event(seq: number, type = 'message_delta', payload: Record<string, unknown> = {}): RunEvent {
  return { run_id: 'run-1', seq, type, payload, created_at: '2025-01-01T00:00:00.000Z' };
}

const done = (seq: number) => event(seq, 'done', { status: 'completed' });

/** A RunStream on a fake server, recording what it delivers. */
function follow(options: Partial<RunStreamOptions> = {}) {
  const server = fakeServer();
  const delivered: RunEvent[] = [];
  const ends: EndReason[] = [];
  const connection: boolean[] = [];
  let token = 'token-1';
  const stream = new RunStream({
    url: '/api/runs/run-1/events',
    headers: () => ({ Authorization: `Bearer ${token}` }),
    onEvent: (e) => delivered.push(e),
    onEnd: (reason) => ends.push(reason),
    onConnection: (up) => connection.push(up),
    fetch: server.fetch,
    retryDelaysMs: [0],
    ...options,
  });
  return {
    server,
    stream,
    delivered,
    seqs: () => delivered.map((e) => e.seq),
    ends,
    connection,
    setToken: (next: string) => {
      token = next;
    },
  };
}

/** Retries an assertion until it holds (polling often: the fake server answers at once). */
function until(check: () => void): Promise<void> {
  return vi.waitFor(check, { interval: 5, timeout: 2000 });
}

/** Waits until the stream has made `count` requests. */
async function connections(server: ReturnType<typeof fakeServer>, count: number): Promise<Connection> {
  await until(() => expect(server.connections).toHaveLength(count));
  return server.connections[count - 1];
}

/** Lets pending promise and stream work run (real macrotasks: only setTimeout may be faked). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function errorOf(reason: EndReason | undefined): ApiError {
  if (reason?.kind !== 'error') throw new Error(`expected an error end, got ${JSON.stringify(reason)}`);
  return reason.error;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RunStream: resuming', () => {
  it('reconnects after the server closes the stream without done, resuming after the last seq', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    expect(first.url).toBe('/api/runs/run-1/events');
    expect(first.headers.Accept).toBe('text/event-stream');
    expect(first.headers).not.toHaveProperty('Last-Event-ID');
    first.send(event(1), event(2), event(3));
    await until(() => expect(t.seqs()).toEqual([1, 2, 3]));
    first.end();

    const second = await connections(t.server, 2);
    expect(second.headers['Last-Event-ID']).toBe('3');
    second.send(event(4), done(5));
    await running;
    expect(t.seqs()).toEqual([1, 2, 3, 4, 5]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
    expect(t.server.fetch).toHaveBeenCalledTimes(2);
  });

  it('reconnects after a network error mid-stream, resuming after the last seq', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1), event(2));
    await until(() => expect(t.seqs()).toEqual([1, 2]));
    first.fail();

    const second = await connections(t.server, 2);
    expect(second.headers['Last-Event-ID']).toBe('2');
    second.send(done(3));
    await running;
    expect(t.seqs()).toEqual([1, 2, 3]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('reads the headers again at each connection, so a renewed token is sent', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    expect(first.headers.Authorization).toBe('Bearer token-1');
    first.send(event(1));
    await until(() => expect(t.seqs()).toEqual([1]));
    t.setToken('token-2');
    first.fail();

    const second = await connections(t.server, 2);
    expect(second.headers.Authorization).toBe('Bearer token-2');
    expect(second.headers['Last-Event-ID']).toBe('1');
    t.setToken('token-3');
    second.end();

    const third = await connections(t.server, 3);
    expect(third.headers.Authorization).toBe('Bearer token-3');
    expect(third.headers['Last-Event-ID']).toBe('1');
    third.send(done(2));
    await running;
    expect(t.seqs()).toEqual([1, 2]);
  });

  it('keeps resuming after the last seq delivered over several drops', async () => {
    const t = follow();
    const running = t.stream.run();
    for (let seq = 1; seq <= 4; seq++) {
      const connection = await connections(t.server, seq);
      if (seq > 1) expect(connection.headers['Last-Event-ID']).toBe(String(seq - 1));
      connection.send(event(seq));
      await until(() => expect(t.seqs()).toHaveLength(seq));
      connection.fail();
    }
    const last = await connections(t.server, 5);
    expect(last.headers['Last-Event-ID']).toBe('4');
    last.send(done(5));
    await running;
    expect(t.seqs()).toEqual([1, 2, 3, 4, 5]);
  });

  it('tells when it is connected and when it waits to reconnect', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    await until(() => expect(t.connection).toEqual([true]));
    first.fail();
    const second = await connections(t.server, 2);
    await until(() => expect(t.connection).toEqual([true, false, true]));
    second.send(done(1));
    await running;
    expect(t.connection.at(-1)).toBe(false);
  });

  it('starts after the `after` position, sending Last-Event-ID on the first request', async () => {
    const t = follow({ after: 7 });
    expect(t.stream.position).toBe(7);
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    expect(first.headers['Last-Event-ID']).toBe('7');
    first.send(event(6), event(7), event(8), done(9));
    await running;
    expect(t.seqs()).toEqual([8, 9]);
    expect(t.stream.position).toBe(9);
  });
});

describe('RunStream: duplicates', () => {
  it('drops a replayed event at or below the last seq delivered', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1), event(2), event(3));
    await until(() => expect(t.seqs()).toEqual([1, 2, 3]));
    first.end();

    const second = await connections(t.server, 2);
    // A server that replays more than asked: everything from the start, and one event twice.
    second.send(event(1), event(2), event(3), event(4), event(4), event(5), done(6));
    await running;
    expect(t.seqs()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('drops an event whose seq is lower than one already delivered on the same connection', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1), event(3), event(2), event(3), event(4), done(5));
    await running;
    expect(t.seqs()).toEqual([1, 3, 4, 5]);
  });

  it('delivers each event whole when its frames arrive byte by byte, cutting characters in two', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    const events = [event(1, 'message_delta', { delta: 'héllo 世界' }), event(2), done(3)];
    const text = events
      .map((e) => `id: ${e.seq}\r\nevent: ${e.type}\r\ndata: ${JSON.stringify(e)}\r\n\r\n`)
      .join(': heartbeat\r\n\r\n');
    for (const byte of new TextEncoder().encode(text)) first.write(Uint8Array.of(byte));
    await running;
    expect(t.delivered).toEqual(events);
  });
});

describe('RunStream: ending', () => {
  it('stops after done: onEnd gets done and no further request is made', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1), done(2), event(3));
    await running;
    expect(t.seqs()).toEqual([1, 2]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
    expect(first.signal.aborted).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
    expect(t.ends).toHaveLength(1);
  });

  it.each([400, 401, 403, 404])('ends with an error on a %i answer and does not retry', async (status) => {
    const t = follow();
    t.server.answer({ status, body: { code: 'runs.not_found', message: 'No such run.' } });
    await t.stream.run();
    const error = errorOf(t.ends[0]);
    expect(error.status).toBe(status);
    expect(error.code).toBe('runs.not_found');
    expect(t.ends).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
    expect(t.delivered).toEqual([]);
  });

  it('retries after a 503 answer, then follows the stream', async () => {
    const t = follow();
    t.server.answer({ status: 503 }, { status: 503, body: { code: 'common.unavailable', message: 'Busy' } });
    const running = t.stream.run();
    const third = await connections(t.server, 3);
    third.send(event(1), done(2));
    await running;
    expect(t.seqs()).toEqual([1, 2]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('retries after a 500 answer and after a failed fetch', async () => {
    const t = follow();
    t.server.answer({ status: 500 });
    t.server.fetch.mockImplementationOnce(() => Promise.reject(new TypeError('Failed to fetch')));
    const running = t.stream.run();
    // The rejected fetch leaves no connection record: the 500 is the first, the stream the second.
    const stream = await connections(t.server, 2);
    stream.send(done(1));
    await running;
    expect(t.server.fetch).toHaveBeenCalledTimes(3);
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('waits for Retry-After before retrying a 429 answer', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = follow();
    t.server.answer({
      status: 429,
      headers: { 'Retry-After': '2' },
      body: { code: 'runs.too_many_streams', message: 'Too many streams.' },
    });
    const running = t.stream.run();
    await settle();
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1999);
    await settle();
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(t.server.fetch).toHaveBeenCalledTimes(2);
    t.server.connections[1].send(done(1));
    await settle();
    await running;
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('waits the retry delays in turn, repeating the last, and reconnects soonest after a drop', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = follow({ retryDelaysMs: [10, 100, 1000] });
    t.server.answer('stream', { status: 503 }, { status: 503 }, { status: 503 });
    const requests = () => t.server.fetch.mock.calls.length;
    /** Advances the clock by `ms`, then lets the stream act. */
    const wait = async (ms: number) => {
      await vi.advanceTimersByTimeAsync(ms);
      await settle();
    };
    const running = t.stream.run();
    await settle();
    t.server.connections[0].send(event(1));
    await settle();
    t.server.connections[0].fail();
    await settle();
    // A connection that delivered events dropped: the first delay.
    await wait(9);
    expect(requests()).toBe(1);
    await wait(1);
    expect(requests()).toBe(2);
    // Failed attempts: the next delays, the last one repeated.
    await wait(99);
    expect(requests()).toBe(2);
    await wait(1);
    expect(requests()).toBe(3);
    await wait(999);
    expect(requests()).toBe(3);
    await wait(1);
    expect(requests()).toBe(4);
    await wait(999);
    expect(requests()).toBe(4);
    await wait(1);
    expect(requests()).toBe(5);
    t.server.connections[4].send(done(2));
    await settle();
    await running;
    expect(t.seqs()).toEqual([1, 2]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('close() while connected ends the stream with closed and makes no further request', async () => {
    const t = follow();
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1));
    await until(() => expect(t.seqs()).toEqual([1]));
    t.stream.close();
    await running;
    expect(first.signal.aborted).toBe(true);
    expect(t.ends).toEqual([{ kind: 'closed' }]);
    expect(t.connection.at(-1)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
  });

  it('close() while waiting to reconnect ends at once with closed', async () => {
    const t = follow({ retryDelaysMs: [60_000] });
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.fail();
    await until(() => expect(t.connection).toEqual([true, false]));
    t.stream.close();
    await running;
    expect(t.ends).toEqual([{ kind: 'closed' }]);
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
  });

  it('close() before run() ends with closed without any request', async () => {
    const t = follow();
    t.stream.close();
    await t.stream.run();
    expect(t.ends).toEqual([{ kind: 'closed' }]);
    expect(t.server.fetch).not.toHaveBeenCalled();
  });
});

describe('RunStream: idle timeout', () => {
  it('aborts a silent connection after idleTimeoutMs and reconnects after the last seq', async () => {
    const t = follow({ idleTimeoutMs: 30 });
    const running = t.stream.run();
    const first = await connections(t.server, 1);
    first.send(event(1));
    const second = await connections(t.server, 2);
    expect(first.signal.aborted).toBe(true);
    expect(second.headers['Last-Event-ID']).toBe('1');
    second.send(done(2));
    await running;
    expect(t.seqs()).toEqual([1, 2]);
    expect(t.ends).toEqual([{ kind: 'done' }]);
  });

  it('counts the idle time from the last bytes received: heartbeats keep a connection alive', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const t = follow({ idleTimeoutMs: 1000 });
    const running = t.stream.run();
    await settle();
    const first = t.server.connections[0];
    await vi.advanceTimersByTimeAsync(900);
    first.write(': heartbeat\n\n');
    await settle();
    await vi.advanceTimersByTimeAsync(900);
    first.send(event(1));
    await settle();
    await vi.advanceTimersByTimeAsync(999);
    await settle();
    expect(first.signal.aborted).toBe(false);
    expect(t.server.fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await settle();
    expect(first.signal.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(1); // the retry delay
    await settle();
    expect(t.server.fetch).toHaveBeenCalledTimes(2);
    expect(t.server.connections[1].headers['Last-Event-ID']).toBe('1');
    t.server.connections[1].send(done(2));
    await settle();
    await running;
    expect(t.seqs()).toEqual([1, 2]);
  });
});
