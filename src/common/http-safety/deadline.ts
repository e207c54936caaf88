/**
 * One timer for a whole exchange (every redirect hop, and the body unless cleared). It aborts with the
 * error it is given, so a body read after expiry rejects with that same error.
 */
export class Deadline {
  readonly signal: AbortSignal;
  private readonly timer: NodeJS.Timeout;
  private expiry: Error | null = null;

  constructor(ms: number, onExpiry: () => Error, callerSignal?: AbortSignal | null) {
    const controller = new AbortController();
    this.timer = setTimeout(() => {
      this.expiry = onExpiry();
      controller.abort(this.expiry);
    }, ms);
    this.timer.unref();
    this.signal = callerSignal ? AbortSignal.any([callerSignal, controller.signal]) : controller.signal;
  }

  /** The error the deadline aborted with, or null while it has not expired. */
  get expiredWith(): Error | null {
    return this.expiry;
  }

  clear(): void {
    clearTimeout(this.timer);
  }
}
