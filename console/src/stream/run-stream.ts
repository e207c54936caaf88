import { ApiError, apiErrorFrom } from '../api/api-error';
import { SseParser } from './sse-parser';

/** One run event as the stream carries it. */
export interface RunEvent {
  run_id: string;
  seq: number;
  type: string;
  payload: Record<string, unknown>;
  created_at: string;
}

export interface RunStreamOptions {
  url: string;
  /** Read at every (re)connection, so a renewed token is used. */
  headers: () => Record<string, string>;
  /** The last seq the caller already holds: the stream starts after it. */
  after?: number;
  onEvent: (event: RunEvent) => void;
  /** The stream ended for good: after `done`, after `close()`, or on an error that retrying cannot fix. */
  onEnd?: (reason: { kind: 'done' } | { kind: 'closed' } | { kind: 'error'; error: ApiError }) => void;
  /** Whether the stream is connected (false while it waits to reconnect). */
  onConnection?: (connected: boolean) => void;
  fetch?: typeof fetch;
  /** Waits between reconnection attempts, the last one repeated. */
  retryDelaysMs?: readonly number[];
  /** No byte for this long (heartbeats come every 15 s) means the connection is dead. */
  idleTimeoutMs?: number;
}

const FATAL_STATUSES = new Set([400, 401, 403, 404]);

/**
 * Follows a run's event stream over `fetch` (so it can send the Authorization header), resuming with
 * `Last-Event-ID` after any drop: a network failure, a server restart, a silent connection. Each event is
 * delivered once and in order: a replayed seq at or below the last one delivered is dropped.
 */
export class RunStream {
  private lastSeq: number;
  private controller: AbortController | null = null;
  private closed = false;
  private readonly fetchFn: typeof fetch;
  private readonly delays: readonly number[];

  constructor(private readonly options: RunStreamOptions) {
    this.lastSeq = options.after ?? 0;
    this.fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.delays = options.retryDelaysMs ?? [500, 1000, 2000, 4000, 8000];
  }

  get position(): number {
    return this.lastSeq;
  }

  /** Runs until `done`, a fatal error or `close()`; resolves then. */
  async run(): Promise<void> {
    let failures = 0;
    while (!this.closed) {
      const outcome = await this.connectOnce();
      if (outcome.kind === 'done' || outcome.kind === 'closed') return this.end(outcome);
      if (outcome.kind === 'fatal') return this.end({ kind: 'error', error: outcome.error });
      failures = outcome.progressed ? 0 : failures + 1;
      const wait = outcome.retryAfterMs ?? this.delays[Math.min(failures, this.delays.length - 1)];
      await this.sleep(wait);
    }
    this.end({ kind: 'closed' });
  }

  close(): void {
    this.closed = true;
    this.controller?.abort();
  }

  private ended = false;
  private end(reason: Parameters<NonNullable<RunStreamOptions['onEnd']>>[0]): void {
    if (this.ended) return;
    this.ended = true;
    this.options.onConnection?.(false);
    this.options.onEnd?.(reason);
  }

  private async connectOnce(): Promise<
    | { kind: 'done' }
    | { kind: 'closed' }
    | { kind: 'fatal'; error: ApiError }
    | { kind: 'retry'; progressed: boolean; retryAfterMs?: number }
  > {
    const controller = new AbortController();
    this.controller = controller;
    const headers: Record<string, string> = { Accept: 'text/event-stream', ...this.options.headers() };
    if (this.lastSeq > 0) headers['Last-Event-ID'] = String(this.lastSeq);
    let progressed = false;
    let idle: ReturnType<typeof setTimeout> | undefined;
    const armIdle = () => {
      clearTimeout(idle);
      idle = setTimeout(() => controller.abort(), this.options.idleTimeoutMs ?? 45_000);
    };
    try {
      armIdle();
      const response = await this.fetchFn(this.options.url, { headers, signal: controller.signal });
      if (!response.ok) {
        const error = await apiErrorFrom(response);
        if (FATAL_STATUSES.has(error.status)) return { kind: 'fatal', error };
        const retryAfterMs = error.retryAfterSeconds ? error.retryAfterSeconds * 1000 : undefined;
        return { kind: 'retry', progressed: false, retryAfterMs };
      }
      if (!response.body) return { kind: 'retry', progressed: false };
      this.options.onConnection?.(true);
      const parser = new SseParser();
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        armIdle();
        for (const frame of parser.push(value)) {
          if (!frame.data) continue;
          const event = JSON.parse(frame.data) as RunEvent;
          if (event.seq <= this.lastSeq) continue;
          this.lastSeq = event.seq;
          progressed = true;
          this.options.onEvent(event);
          if (event.type === 'done') {
            controller.abort();
            return { kind: 'done' };
          }
        }
      }
    } catch {
      // A dropped connection, an abort by the idle timer or by close(): decided below.
    } finally {
      clearTimeout(idle);
    }
    if (this.closed) return { kind: 'closed' };
    this.options.onConnection?.(false);
    return { kind: 'retry', progressed };
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.controller = new AbortController();
      this.controller.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}
