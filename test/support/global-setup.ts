import './ts-js-extension-hook';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withAdmin } from './test-database';
import { databaseUrl, templateDatabase, TEST_DATABASE_PREFIX, TEST_PG_ADMIN_URL } from './test-env';

const RUN_NAME = /^yuxi_test_([0-9a-f]{8})_/;
const runLockKey = (runId: string) => `yuxi-test-run:${runId}`;

/**
 * Drops the databases of runs that are over: a live run holds an advisory lock for its whole life
 * (taken below), so a run whose lock is free has ended or crashed. Databases of the older naming
 * scheme (no run id) are dropped too.
 */
async function dropDatabasesOfFinishedRuns(client: Client): Promise<void> {
  const { rows } = await client.query<{ datname: string }>(
    `SELECT datname FROM pg_database WHERE datname LIKE $1`,
    [`${TEST_DATABASE_PREFIX}%`],
  );
  const runs = new Map<string, string[]>();
  for (const { datname } of rows) {
    const runId = RUN_NAME.exec(datname)?.[1] ?? 'legacy';
    runs.set(runId, [...(runs.get(runId) ?? []), datname]);
  }
  for (const [runId, names] of runs) {
    if (runId !== 'legacy') {
      const free = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS ok', [
        runLockKey(runId),
      ]);
      if (!free.rows[0]?.ok) continue;
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', [runLockKey(runId)]);
    }
    for (const name of names) await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/**
 * Once per Jest run: claim a run id (held by an advisory lock until the global teardown), clean up after
 * finished runs, then migrate this run's template database that every test file clones.
 */
export default async function globalSetup(): Promise<void> {
  // Loaded after the hook above is installed.
  const { DataSource } = await import('typeorm');
  const { buildDataSourceOptions } = await import('../../src/database/data-source-options.js');
  const { runMigrationsExclusively } = await import('../../src/database/run-migrations.js');
  const { ENTITIES } = await import('../../src/entities.js');

  const runId = randomBytes(4).toString('hex');
  process.env.YUXI_TEST_RUN_ID = runId; // inherited by the test workers
  const lock = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await lock.connect();
  await lock.query('SELECT pg_advisory_lock(hashtext($1))', [runLockKey(runId)]);
  (globalThis as { yuxiTestRunLock?: Client }).yuxiTestRunLock = lock;

  await withAdmin(async (client) => {
    await dropDatabasesOfFinishedRuns(client);
    await client.query(`CREATE DATABASE "${templateDatabase(runId)}"`);
  });
  const dataSource = new DataSource(
    buildDataSourceOptions({ url: databaseUrl(templateDatabase(runId)), poolSize: 2 }, ENTITIES),
  );
  await dataSource.initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
