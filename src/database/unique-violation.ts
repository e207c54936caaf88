import { PgErrorCode } from './pg-error-codes.js';

function violation(error: unknown, sqlState: string, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string } }).driverError;
  const e = driverError ?? (error as { code?: string; constraint?: string });
  return e?.code === sqlState && (constraint === undefined || e.constraint === constraint);
}

/** True for PostgreSQL's `unique_violation` (23505), optionally on one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  return violation(error, PgErrorCode.UNIQUE_VIOLATION, constraint);
}

/** True for PostgreSQL's `foreign_key_violation` (23503), optionally on one named constraint. */
export function isForeignKeyViolation(error: unknown, constraint?: string): boolean {
  return violation(error, PgErrorCode.FOREIGN_KEY_VIOLATION, constraint);
}
