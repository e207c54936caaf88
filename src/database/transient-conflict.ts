import { PgErrorCode, pgErrorCode } from './pg-error-codes.js';

/** PostgreSQL aborted the transaction to break a deadlock (40P01) or a serialization conflict (40001). */
export function isTransientConflict(error: unknown): boolean {
  const code = pgErrorCode(error);
  return code === PgErrorCode.DEADLOCK_DETECTED || code === PgErrorCode.SERIALIZATION_FAILURE;
}

/**
 * Runs a whole transaction again when PostgreSQL aborted it for a transient conflict, at most
 * `attempts` times in all; the last conflict is rethrown (the API maps it to 409
 * `common.concurrent_update`). `work` must open its own transaction: nothing of an aborted one is kept.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientConflict(error)) throw error;
    }
  }
}
