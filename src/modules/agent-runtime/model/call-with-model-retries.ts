import type { DomainError } from '../../../common/errors/index.js';
import { abortableSleep, abortError } from './abortable-sleep.js';
import { ModelErrors, type ModelFailureDetails } from './model.errors.js';
import {
  failureKindOfStatus,
  isRetryableStatus,
  type ModelFailureKind,
  type ModelRetryOptions,
  nextRetryDelayMs,
  parseRetryAfterMs,
} from './model-retry-policy.js';
import { describeProviderFailure } from './provider-failure.js';

export interface ModelRetryContext {
  readonly model: string;
  readonly options: ModelRetryOptions;
  readonly signal?: AbortSignal;
  /** Seams for tests; default to real timers, `Math.random` and `Date.now`. */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly random?: () => number;
  readonly now?: () => number;
  /** Called before each wait (for logs and tests). */
  readonly onRetry?: (event: { attempt: number; delayMs: number; status?: number }) => void;
}

const ERROR_OF_KIND: Record<ModelFailureKind, (details: ModelFailureDetails) => DomainError> = {
  rate_limited: ModelErrors.rateLimited,
  unavailable: ModelErrors.unavailable,
  bad_request: ModelErrors.badRequest,
  auth_failed: ModelErrors.authFailed,
};

/**
 * Runs one model request with our retry policy: 429, 5xx, connection resets and timeouts are tried
 * again (honouring `Retry-After`), other 4xx fail at once; the final failure becomes a `DomainError`
 * with a stable `models.*` code. An abort (before or during a wait) rethrows the abort at once.
 * Errors that are none of these (a bug, a parse failure) pass through unchanged.
 */
export async function callWithModelRetries<T>(
  call: () => Promise<T>,
  context: ModelRetryContext,
): Promise<T> {
  const { signal, options } = context;
  const sleep = context.sleep ?? abortableSleep;
  const now = context.now ?? Date.now;
  let waitedMs = 0;
  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortError(signal);
    try {
      return await call();
    } catch (error) {
      if (signal?.aborted) throw abortError(signal);
      const failure = describeProviderFailure(error);
      if (failure.type === 'other') throw error;
      const details: ModelFailureDetails = { model: context.model, attempts: attempt };
      let retryAfterMs: number | undefined;
      let kind: ModelFailureKind = 'unavailable';
      if (failure.type === 'http') {
        details.status = failure.status;
        kind = failureKindOfStatus(failure.status);
        retryAfterMs = parseRetryAfterMs(failure.retryAfter, now());
        if (retryAfterMs !== undefined) details.retry_after_seconds = Math.ceil(retryAfterMs / 1000);
        if (failure.contextOverflow === true) throw ModelErrors.contextOverflow(details);
        if (!isRetryableStatus(failure.status)) throw ERROR_OF_KIND[kind](details);
      } else {
        details.connection = failure.reason;
      }
      const delayMs = nextRetryDelayMs({ attempt, waitedMs, retryAfterMs, options, random: context.random });
      if (delayMs === undefined) throw ERROR_OF_KIND[kind](details);
      context.onRetry?.({ attempt, delayMs, status: details.status });
      await sleep(delayMs, signal);
      waitedMs += delayMs;
    }
  }
}
