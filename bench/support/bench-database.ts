import { Client } from 'pg';
import { BENCH_DATABASE_PREFIX, BENCH_PG_ADMIN_URL, randomSuffix } from './bench-env.js';
import { onCleanup } from './cleanup.js';

async function withAdmin<T>(run: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: BENCH_PG_ADMIN_URL });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

export interface BenchDatabase {
  readonly name: string;
  drop(): Promise<void>;
}

/** An empty database `yuxi_bench_<random>`, dropped by `drop()` or, at the latest, by the run's cleanup. */
export async function createBenchDatabase(): Promise<BenchDatabase> {
  const name = `${BENCH_DATABASE_PREFIX}${randomSuffix()}`;
  await withAdmin((c) => c.query(`CREATE DATABASE "${name}"`));
  const dropNow = () =>
    withAdmin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined);
  const unregister = onCleanup(`drop database ${name}`, dropNow);
  return {
    name,
    drop: async () => {
      unregister();
      await dropNow();
    },
  };
}
