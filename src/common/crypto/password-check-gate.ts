import { AuthErrorCode } from '../auth/auth.errors.js';
import { DomainError } from '../errors/index.js';

/** How long a client refused for a full queue is asked to wait: a check takes a fraction of a second. */
const RETRY_AFTER_SECONDS = 1;

/** `refuse`: answer 429 when the queue is full (logins); `queue`: always wait (authenticated writes). */
export type GateMode = 'refuse' | 'queue';

export interface GateSnapshot {
  active: number;
  waiting: number;
  /** Most derivations seen running at once since start (or `resetPeak`). */
  peakActive: number;
}

/**
 * Bounds the scrypt derivations of one process: each holds 128·N·r bytes (128 MiB at N=2^17), so
 * parallel logins from many addresses (which the per-IP limiter does not stop) could exhaust memory.
 * At most `concurrency` run; up to `queueBound` more wait in arrival order; a login beyond that is
 * refused with 429 `auth.too_many_requests` and Retry-After.
 */
export class PasswordCheckGate {
  private active = 0;
  private peakActive = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly queueBound: number,
  ) {}

  async run<T>(task: () => Promise<T>, mode: GateMode): Promise<T> {
    if (this.active >= this.concurrency) {
      if (mode === 'refuse' && this.waiting.length >= this.queueBound) throw busy();
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.active += 1;
    }
    this.peakActive = Math.max(this.peakActive, this.active);
    try {
      return await task();
    } finally {
      // The slot passes straight to the next waiter, so `active` never drops below while some wait.
      const next = this.waiting.shift();
      if (next === undefined) this.active -= 1;
      else next();
    }
  }

  snapshot(): GateSnapshot {
    return { active: this.active, waiting: this.waiting.length, peakActive: this.peakActive };
  }

  resetPeak(): void {
    this.peakActive = this.active;
  }
}

function busy(): DomainError {
  return new DomainError(
    'rate_limited',
    AuthErrorCode.TOO_MANY_REQUESTS,
    'Too many logins are being checked right now; try again shortly.',
    { retryAfterSeconds: RETRY_AFTER_SECONDS, details: { retry_after_seconds: RETRY_AFTER_SECONDS } },
  );
}
