/** How model calls are retried. Every field is optional in the factory options; these are the defaults. */
export interface ModelRetryOptions {
  /** Tries in all, the first included. */
  readonly maxAttempts: number;
  /** Backoff ceiling before jitter for the first retry; doubles each retry. */
  readonly baseDelayMs: number;
  /** No single wait is longer than this (a longer `Retry-After` ends the retries instead). */
  readonly maxDelayMs: number;
  /** The waits of one call add up to at most this; a wait that would pass it ends the retries. */
  readonly maxTotalWaitMs: number;
}

export const DEFAULT_MODEL_RETRY_OPTIONS: ModelRetryOptions = {
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 20_000,
  maxTotalWaitMs: 60_000,
};

/** What one failed try means for the call: try again, or give up with this failure. */
export type ModelFailureKind = 'rate_limited' | 'unavailable' | 'bad_request' | 'auth_failed';

/** 429 and 5xx are worth another try; any other 4xx is final (the same request would fail again). */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

export function failureKindOfStatus(status: number): ModelFailureKind {
  if (status === 429) return 'rate_limited';
  if (status === 401 || status === 403) return 'auth_failed';
  if (status >= 500) return 'unavailable';
  return 'bad_request';
}

/**
 * `Retry-After` in milliseconds: delta-seconds (`"3"`, `"1.5"`) or an HTTP date (relative to `nowMs`;
 * a date in the past means 0). Undefined when absent or unreadable.
 */
export function parseRetryAfterMs(
  value: string | null | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  // An HTTP date names its weekday and month; this keeps `Date.parse` from reading "-3" as a year.
  const date = /[a-z]/i.test(text) ? Date.parse(text) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * Exponential backoff with full jitter before retry number `retry` (1 for the first retry):
 * a uniform wait in [0, min(maxDelay, base * 2^(retry-1))]. `random` returns [0, 1).
 */
export function backoffDelayMs(
  retry: number,
  options: ModelRetryOptions,
  random: () => number = Math.random,
): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The wait before the next try, or undefined when there is none: the server's `Retry-After` when it
 * sent one, otherwise backoff; none once the attempts are used up or the wait would pass a limit.
 */
export function nextRetryDelayMs(input: {
  attempt: number;
  waitedMs: number;
  retryAfterMs: number | undefined;
  options: ModelRetryOptions;
  random?: () => number;
}): number | undefined {
  const { attempt, waitedMs, retryAfterMs, options } = input;
  if (attempt >= options.maxAttempts) return undefined;
  const delay = retryAfterMs ?? backoffDelayMs(attempt, options, input.random);
  if (delay > options.maxDelayMs || waitedMs + delay > options.maxTotalWaitMs) return undefined;
  return delay;
}
