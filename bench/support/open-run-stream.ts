import { readRunEvents, type LiveFrame, type SseRead } from './sse-reader.js';

interface Waiter {
  match: (frame: LiveFrame) => boolean;
  resolve: (frame: LiveFrame) => void;
  reject: (error: Error) => void;
}

/**
 * A run's SSE stream kept open while the bench acts on the run: `next` resolves with the first frame
 * (already arrived or still to come) that matches, so a later step can be timed against a stream whose
 * connection was set up before.
 */
export class OpenRunStream {
  private readonly frames: LiveFrame[] = [];
  private waiters: Waiter[] = [];
  private endedWith: string | null = null;
  /** Resolves when the stream ends (after `done`) or times out. */
  readonly ended: Promise<SseRead>;

  constructor(url: string, token: string, timeoutMs = 60_000) {
    this.ended = readRunEvents(url, token, timeoutMs, (frame) => this.onFrame(frame));
    this.ended.then(
      (read) => this.fail(read.ended ? 'the stream ended' : `no \`done\` within ${timeoutMs} ms`),
      (error: unknown) => this.fail(error instanceof Error ? error.message : String(error)),
    );
  }

  get received(): readonly LiveFrame[] {
    return this.frames;
  }

  next(match: (frame: LiveFrame) => boolean): Promise<LiveFrame> {
    const seen = this.frames.find(match);
    if (seen !== undefined) return Promise.resolve(seen);
    if (this.endedWith !== null) return Promise.reject(this.missing());
    return new Promise((resolve, reject) => this.waiters.push({ match, resolve, reject }));
  }

  private onFrame(frame: LiveFrame): void {
    this.frames.push(frame);
    const matched = this.waiters.filter((waiter) => waiter.match(frame));
    this.waiters = this.waiters.filter((waiter) => !matched.includes(waiter));
    for (const waiter of matched) waiter.resolve(frame);
  }

  private fail(reason: string): void {
    this.endedWith = reason;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.missing());
  }

  private missing(): Error {
    const seen = this.frames.map((f) => `${f.seq}:${f.type}`).join(',');
    return new Error(`${this.endedWith} before the awaited event (received ${seen})`);
  }
}
