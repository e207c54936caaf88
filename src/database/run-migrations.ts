import type { DataSource } from 'typeorm';

/** Any fixed 64-bit number: the advisory lock that serializes migrations between processes. */
const MIGRATION_LOCK_KEY = 7_314_205_117;

/**
 * Applies pending migrations while holding a PostgreSQL advisory lock, so an API and a worker that start
 * together never race on the schema.
 */
export async function runMigrationsExclusively(dataSource: DataSource): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
    await runner.release();
  }
}
