import {
  backoffDelayMs,
  DEFAULT_MODEL_RETRY_OPTIONS,
  failureKindOfStatus,
  isRetryableStatus,
  nextRetryDelayMs,
  parseRetryAfterMs,
} from '../../../src/modules/agent-runtime/model/model-retry-policy';

const options = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 5_000, maxTotalWaitMs: 8_000 };

describe('model retry policy', () => {
  it('reads Retry-After given in seconds, whole or fractional', () => {
    expect(parseRetryAfterMs('1')).toBe(1_000);
    expect(parseRetryAfterMs(' 120 ')).toBe(120_000);
    expect(parseRetryAfterMs('1.5')).toBe(1_500);
  });

  it('reads Retry-After given as an HTTP date, relative to now, never negative', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:28:03 GMT', now)).toBe(3_000);
    expect(parseRetryAfterMs('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
  });

  it('ignores a missing or unreadable Retry-After', () => {
    expect(parseRetryAfterMs(undefined)).toBeUndefined();
    expect(parseRetryAfterMs(null)).toBeUndefined();
    expect(parseRetryAfterMs('')).toBeUndefined();
    expect(parseRetryAfterMs('soon')).toBeUndefined();
    expect(parseRetryAfterMs('-3')).toBeUndefined();
  });

  it('keeps backoff within [0, base * 2^(retry-1)], capped at the maximum delay', () => {
    expect(backoffDelayMs(1, options, () => 0)).toBe(0);
    expect(backoffDelayMs(1, options, () => 0.999_999)).toBe(499);
    expect(backoffDelayMs(3, options, () => 0.999_999)).toBe(1_999);
    expect(backoffDelayMs(10, options, () => 0.999_999)).toBe(4_999);
    for (let i = 0; i < 200; i++) {
      const delay = backoffDelayMs(2, options);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(1_000);
    }
  });

  it('retries 429 and 5xx only, never another 4xx', () => {
    for (const status of [429, 500, 502, 503, 504]) expect(isRetryableStatus(status)).toBe(true);
    for (const status of [400, 401, 403, 404, 408, 409, 413, 422])
      expect(isRetryableStatus(status)).toBe(false);
  });

  it('names the failure of each status', () => {
    expect(failureKindOfStatus(429)).toBe('rate_limited');
    expect(failureKindOfStatus(503)).toBe('unavailable');
    expect(failureKindOfStatus(401)).toBe('auth_failed');
    expect(failureKindOfStatus(403)).toBe('auth_failed');
    expect(failureKindOfStatus(400)).toBe('bad_request');
    expect(failureKindOfStatus(404)).toBe('bad_request');
  });

  it('prefers the server’s Retry-After over backoff', () => {
    expect(nextRetryDelayMs({ attempt: 1, waitedMs: 0, retryAfterMs: 2_000, options })).toBe(2_000);
  });

  it('stops after the last attempt, and before a wait that passes a limit', () => {
    expect(nextRetryDelayMs({ attempt: 4, waitedMs: 0, retryAfterMs: 0, options })).toBeUndefined();
    expect(nextRetryDelayMs({ attempt: 1, waitedMs: 0, retryAfterMs: 6_000, options })).toBeUndefined();
    expect(nextRetryDelayMs({ attempt: 2, waitedMs: 4_000, retryAfterMs: 4_500, options })).toBeUndefined();
    expect(nextRetryDelayMs({ attempt: 2, waitedMs: 4_000, retryAfterMs: 4_000, options })).toBe(4_000);
  });

  it('defaults to 4 attempts', () => {
    expect(DEFAULT_MODEL_RETRY_OPTIONS.maxAttempts).toBe(4);
  });
});
