import type { ErrorKind } from './domain-error.js';

/** The one mapping from domain error kinds to HTTP statuses. */
export const ERROR_STATUS: Readonly<Record<ErrorKind, number>> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
  timeout: 504,
};
