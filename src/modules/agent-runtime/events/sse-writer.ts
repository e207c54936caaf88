import type { ServerResponse } from 'node:http';

/**
 * The one writer of an SSE response: chunks go out whole and in order, and a chunk the socket could
 * not take at once (a client that does not read) holds back the next until `drain`, so a slow client
 * costs the socket's buffer, not the whole replay. Writes after the client went away are dropped. A
 * write that waits longer than `writeTimeoutMs` for `drain` (a client that stopped reading) destroys
 * the response, so the stream's `close` teardown frees its slot.
 */
export class SseWriter {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  constructor(
    private readonly res: ServerResponse,
    private readonly writeTimeoutMs: number,
  ) {}

  /** Nothing waiting to be written: optional chunks (heartbeats) are only worth sending then. */
  get idle(): boolean {
    return this.queued === 0;
  }

  /** Resolves once the chunk is handed to the socket (after `drain` if it had to wait). */
  write(chunk: string): Promise<void> {
    this.queued++;
    const written = this.tail.then(() => this.writeNow(chunk)).finally(() => this.queued--);
    this.tail = written;
    return written;
  }

  /** Ends the response after what is queued. */
  end(): Promise<void> {
    const ended = this.tail.then(() => {
      if (!this.gone()) this.res.end();
    });
    this.tail = ended;
    return ended;
  }

  private gone(): boolean {
    return this.res.destroyed || this.res.writableEnded;
  }

  private writeNow(chunk: string): Promise<void> {
    if (this.gone() || this.res.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      const go = () => {
        clearTimeout(timer);
        this.res.off('drain', go);
        this.res.off('close', go);
        resolve();
      };
      const timer = setTimeout(() => {
        this.res.destroy();
        go();
      }, this.writeTimeoutMs);
      this.res.on('drain', go);
      this.res.on('close', go);
    });
  }
}
