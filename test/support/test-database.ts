import { Client } from 'pg';
import { templateDatabase, testDatabaseName, TEST_PG_ADMIN_URL } from './test-env';

async function withAdmin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: TEST_PG_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** A fresh database cloned from the migrated template (milliseconds, fully isolated per test file). */
export async function createTestDatabase(): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = testDatabaseName();
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}" TEMPLATE "${templateDatabase()}"`));
  return {
    name,
    drop: () =>
      withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

export { withAdmin };
