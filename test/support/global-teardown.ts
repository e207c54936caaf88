import type { Client } from 'pg';
import { withAdmin } from './test-database';
import { runDatabasePrefix } from './test-env';

/** Drops this run's databases and releases the run's lock. */
export default async function globalTeardown(): Promise<void> {
  await withAdmin(async (client) => {
    const { rows } = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1`,
      [`${runDatabasePrefix()}%`],
    );
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  });
  await (globalThis as { yuxiTestRunLock?: Client }).yuxiTestRunLock?.end();
}
