/** The error an aborted signal stands for (the executor aborts with a timeout or cancellation error). */
export function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('the conversion was aborted');
}

/**
 * A counting semaphore whose waiters leave the queue when their signal aborts: at most `size`
 * conversions run at once, so a burst of calls cannot take every core from runs and lease heartbeats.
 */
export class Slots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  get inUse(): number {
    return this.running;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves with the function that frees the slot (calling it twice frees it once). */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.running < this.size) {
      this.running += 1;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', onAbort);
        this.running += 1;
        resolve(this.releaser());
      };
      const onAbort = () => {
        const index = this.waiting.indexOf(grant);
        if (index !== -1) this.waiting.splice(index, 1);
        reject(abortReason(signal));
      };
      this.waiting.push(grant);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      this.waiting.shift()?.();
    };
  }
}
