import { HttpException } from '@nestjs/common';
import { AuthErrorCode } from '../auth/auth.errors.js';
import { CommonErrorCode, CommonErrors } from './common.errors.js';
import { DomainError, type ErrorCode, type ErrorKind } from './domain-error.js';
import { PgErrorCode } from '../../database/pg-error-codes.js';
import { isTransientConflict } from '../../database/transient-conflict.js';

const HTTP_KIND: Record<number, [ErrorKind, ErrorCode]> = {
  400: ['invalid', CommonErrorCode.BAD_REQUEST],
  401: ['unauthenticated', AuthErrorCode.UNAUTHENTICATED],
  403: ['forbidden', AuthErrorCode.FORBIDDEN],
  404: ['not_found', CommonErrorCode.NOT_FOUND],
  405: ['invalid', CommonErrorCode.METHOD_NOT_ALLOWED],
  409: ['conflict', CommonErrorCode.CONFLICT],
  413: ['too_large', CommonErrorCode.PAYLOAD_TOO_LARGE],
  415: ['invalid', CommonErrorCode.UNSUPPORTED_MEDIA_TYPE],
  422: ['unprocessable', CommonErrorCode.UNPROCESSABLE],
  429: ['rate_limited', CommonErrorCode.RATE_LIMITED],
  503: ['unavailable', CommonErrorCode.DEPENDENCY_UNAVAILABLE],
};

const DATABASE_DOWN = new Set<string>([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  PgErrorCode.ADMIN_SHUTDOWN,
  PgErrorCode.CANNOT_CONNECT_NOW,
  PgErrorCode.TOO_MANY_CONNECTIONS,
]);

function isDatabaseUnavailable(error: Error): boolean {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && DATABASE_DOWN.has(code)) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Connection is not established/i.test(
    error.message,
  );
}

function isRedisUnavailable(error: Error): boolean {
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    /enableOfflineQueue options is false|Connection is closed|Reached the max retries per request/i.test(
      error.message,
    )
  );
}

function isErrorLike(error: unknown): error is Error {
  return typeof error === 'object' && error !== null && typeof (error as Error).message === 'string';
}

/** `common.dependency_unavailable` when `error` is a lost PostgreSQL or Redis connection, else null. */
export function asDependencyOutage(error: unknown): DomainError | null {
  if (!isErrorLike(error)) return null;
  if (isRedisUnavailable(error)) return CommonErrors.dependencyUnavailable('redis', error);
  if (isDatabaseUnavailable(error)) return CommonErrors.dependencyUnavailable('database', error);
  return null;
}

/** Classifies anything thrown while serving a request into the error a client sees. */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof HttpException) {
    const status = error.getStatus();
    const [kind, code] =
      HTTP_KIND[status] ??
      (status >= 500
        ? ['internal', CommonErrorCode.INTERNAL_ERROR]
        : ['invalid', CommonErrorCode.BAD_REQUEST]);
    if (kind === 'internal') return CommonErrors.internal();
    const response = error.getResponse();
    const message =
      typeof response === 'object' && response !== null && 'message' in response
        ? [response.message].flat().join('; ')
        : error.message;
    return new DomainError(kind, code, message);
  }
  // Duck-typed: errors raised inside Node's own modules may come from another realm than `Error`.
  const outage = asDependencyOutage(error);
  if (outage !== null) return outage;
  // A deadlock or serialization failure that survived its retries (or had none): the client may retry.
  if (isErrorLike(error) && isTransientConflict(error)) return CommonErrors.concurrentUpdate(error);
  return CommonErrors.internal();
}
