import { createBenchContext, type BenchContext } from './bench-context.js';
import { BENCH_REDIS_PREFIX, BENCH_REDIS_URL } from './bench-env.js';
import { cleanupOnSignals, onCleanup, runCleanup } from './cleanup.js';
import { deleteRedisKeys } from './redis-keys.js';

/**
 * The frame of a single-bench script (`npm run bench:<name>`): cleanup on signals and at exit (Redis
 * keys too when the bench starts the service), the printed report, a non-zero exit when it fails.
 */
export function runBenchMain(
  bench: (context: BenchContext) => Promise<string>,
  options: { usesRedis: boolean },
): void {
  const main = async () => {
    cleanupOnSignals();
    if (options.usesRedis)
      onCleanup(`delete Redis keys ${BENCH_REDIS_PREFIX}:*`, async () => {
        await deleteRedisKeys(BENCH_REDIS_URL, BENCH_REDIS_PREFIX);
      });
    process.stdout.write(`\n${await bench(await createBenchContext())}\n`);
  };
  main()
    .catch((error: unknown) => {
      process.exitCode = 1;
      process.stderr.write(
        `\nBENCH FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    })
    .finally(async () => {
      await runCleanup();
      process.exit(process.exitCode ?? 0);
    });
}
