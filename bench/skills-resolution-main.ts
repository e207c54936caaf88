import { runSkillResolutionBench, skillResolutionLines } from './skills-resolution.bench.js';
import { createBenchContext } from './support/bench-context.js';
import { cleanupOnSignals, runCleanup } from './support/cleanup.js';

/** `npm run bench:skills`: only the skill resolution bench (the full set is `npm run bench`). */
async function main(): Promise<void> {
  cleanupOnSignals();
  const figures = await runSkillResolutionBench(await createBenchContext());
  process.stdout.write(
    `\n${skillResolutionLines(figures).join('\n')}\n${JSON.stringify({ skills: figures })}\n`,
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
