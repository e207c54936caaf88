/**
 * What went wrong, in terms a client can act on. `error-status.ts` maps each kind to an HTTP status
 * in one place; services throw `DomainError`s and never HTTP exceptions.
 */
export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'too_large'
  | 'unprocessable'
  | 'rate_limited'
  | 'unavailable'
  | 'timeout'
  | 'internal';

/**
 * A stable `<module>.<snake_case>` code that clients rely on. Each module defines its codes as constants
 * in its `*.errors.ts`; nothing else writes a code string.
 */
export type ErrorCode = `${string}.${string}`;

export interface DomainErrorOptions {
  details?: Record<string, unknown>;
  cause?: unknown;
  /** Seconds the client should wait before retrying (sent as `Retry-After`). */
  retryAfterSeconds?: number;
}

export class DomainError extends Error {
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfterSeconds: number | undefined;

  constructor(
    readonly kind: ErrorKind,
    readonly code: ErrorCode,
    message: string,
    options: DomainErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}
