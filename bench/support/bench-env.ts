import { randomBytes } from 'node:crypto';

/** Where the bench finds PostgreSQL (an admin connection that may CREATE/DROP DATABASE) and Redis. */
export const BENCH_PG_ADMIN_URL =
  process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const BENCH_REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/0';
export const BENCH_DATABASE_PREFIX = 'yuxi_bench_';

export const ADMIN_USERNAME = 'bench-admin';
export const ADMIN_PASSWORD = `bench-${randomBytes(12).toString('hex')}`;

/** One Redis namespace for the whole run (every key the app writes starts with `<prefix>:`). */
export const BENCH_REDIS_PREFIX = `yuxi-bench-${randomBytes(6).toString('hex')}`;

export function randomSuffix(): string {
  return randomBytes(6).toString('hex');
}

export function databaseUrl(name: string): string {
  const url = new URL(BENCH_PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The complete, explicit environment of one app server process (nothing is inherited). */
export function appEnvironment(options: {
  databaseName: string;
  port: number;
  dataDir: string;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    APP_ROLE: 'all',
    LOG_LEVEL: 'warn',
    PORT: String(options.port),
    // A bench worker is watched through its log, not probed; no listener to collide with others.
    WORKER_HEALTH_PORT: '0',
    DATA_DIR: options.dataDir,
    DATABASE_URL: databaseUrl(options.databaseName),
    REDIS_URL: BENCH_REDIS_URL,
    REDIS_PREFIX: BENCH_REDIS_PREFIX,
    JWT_SECRET: randomBytes(32).toString('hex'),
    SECRETS_KEY: randomBytes(32).toString('base64'),
    ADMIN_USERNAME,
    ADMIN_PASSWORD,
    // The fan-out figure opens 500 streams as one user: above the per-user cap a deployment would keep.
    SSE_MAX_STREAMS_PER_USER: '1000',
    // Likewise it starts 100 runs at once as that user: above RUNS_MAX_ACTIVE_PER_USER's default.
    RUNS_MAX_ACTIVE_PER_USER: '1000',
  };
}
