/** The PostgreSQL SQLSTATE codes the service reacts to, by their names in the PostgreSQL manual. */
export const PgErrorCode = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  SERIALIZATION_FAILURE: '40001',
  DEADLOCK_DETECTED: '40P01',
  TOO_MANY_CONNECTIONS: '53300',
  ADMIN_SHUTDOWN: '57P01',
  CANNOT_CONNECT_NOW: '57P03',
} as const;

/** SQLSTATE classes: the first two characters of a code. */
export const PgErrorClass = {
  DATA_EXCEPTION: '22',
  INTEGRITY_CONSTRAINT_VIOLATION: '23',
} as const;

/** The SQLSTATE of a driver error, or of the TypeORM error wrapping it (undefined for anything else). */
export function pgErrorCode(error: unknown): string | undefined {
  const driverError = (error as { driverError?: { code?: unknown } } | null)?.driverError;
  const code = driverError?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}
