import { randomBytes } from 'node:crypto';

/** Where the tests find PostgreSQL (an admin connection) and Redis; override for other machines. */
export const TEST_PG_ADMIN_URL =
  process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
export const TEST_DATABASE_PREFIX = 'yuxi_test_';

/**
 * Each Jest run names its databases `yuxi_test_<run id>_…` (the run id is set by the global setup), so
 * two runs on one machine never drop each other's databases.
 */
export function testRunId(): string {
  return process.env.YUXI_TEST_RUN_ID ?? 'adhoc';
}

export function runDatabasePrefix(runId = testRunId()): string {
  return `${TEST_DATABASE_PREFIX}${runId}_`;
}

export function templateDatabase(runId = testRunId()): string {
  return `${runDatabasePrefix(runId)}template`;
}

/** A fresh name in this run's namespace. */
export function testDatabaseName(): string {
  return `${runDatabasePrefix()}${randomBytes(6).toString('hex')}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(TEST_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A complete, valid environment for one test app; each call gets its own Redis namespace. */
export function baseTestEnvironment(databaseName: string): Record<string, string> {
  return {
    NODE_ENV: 'test',
    APP_ROLE: 'api',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_URL: databaseUrl(databaseName),
    DB_MIGRATE_ON_START: 'false',
    DB_POOL_SIZE: '5',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}`,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ADMIN_USERNAME: 'root',
    ADMIN_PASSWORD: 'root-password-1',
    DATA_DIR: `/tmp/yuxi-test-data/${databaseName}`,
    SHUTDOWN_GRACE_SECONDS: '2',
    // Workers of parallel suites would all take the default port; a spec that probes one picks a port.
    WORKER_HEALTH_PORT: '0',
    // Tests create many users; the production cost (2^17, the default) is tested where it matters.
    PASSWORD_HASH_LOG_N: '14',
  };
}
