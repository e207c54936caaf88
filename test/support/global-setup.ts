import './ts-js-extension-hook';
import { withAdmin } from './test-database';
import { databaseUrl, TEMPLATE_DATABASE, TEST_DATABASE_PREFIX } from './test-env';

/**
 * Once per test run: drop databases left by an interrupted run, then migrate a fresh template that
 * every test file clones (`CREATE DATABASE … TEMPLATE …`).
 */
export default async function globalSetup(): Promise<void> {
  // Loaded after the hook above is installed.
  const { DataSource } = await import('typeorm');
  const { buildDataSourceOptions } = await import('../../src/database/data-source-options.js');
  const { runMigrationsExclusively } = await import('../../src/database/run-migrations.js');
  await withAdmin(async (client) => {
    const stale = await client.query<{ datname: string }>(
      `SELECT datname FROM pg_database WHERE datname LIKE $1 AND datname <> $2`,
      [`${TEST_DATABASE_PREFIX}%`, TEMPLATE_DATABASE],
    );
    for (const { datname } of stale.rows)
      await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await client.query(`DROP DATABASE IF EXISTS "${TEMPLATE_DATABASE}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${TEMPLATE_DATABASE}"`);
  });
  const dataSource = new DataSource(
    buildDataSourceOptions({ url: databaseUrl(TEMPLATE_DATABASE), poolSize: 2 }),
  );
  await dataSource.initialize();
  try {
    await runMigrationsExclusively(dataSource);
  } finally {
    await dataSource.destroy();
  }
}
