import { runSubagentsBench } from './subagents.bench.js';
import { createBenchContext } from './support/bench-context.js';
import { BENCH_REDIS_PREFIX, BENCH_REDIS_URL } from './support/bench-env.js';
import { cleanupOnSignals, onCleanup, runCleanup } from './support/cleanup.js';
import { deleteRedisKeys } from './support/redis-keys.js';
import { subagentLines } from './support/report.js';
import { round } from './support/stats.js';

/** `npm run bench:subagents`: only the subagents figure (the full set is `npm run bench`). */
async function main(): Promise<void> {
  cleanupOnSignals();
  onCleanup(`delete Redis keys ${BENCH_REDIS_PREFIX}:*`, async () => {
    await deleteRedisKeys(BENCH_REDIS_URL, BENCH_REDIS_PREFIX);
  });
  const figures = await runSubagentsBench(await createBenchContext());
  process.stdout.write(`\n${subagentLines(figures).join('\n')}\n`);
  process.stdout.write(
    `${JSON.stringify({ subagents: figures }, (_k, v: unknown) => (typeof v === 'number' ? round(v, 2) : v))}\n`,
  );
}

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
