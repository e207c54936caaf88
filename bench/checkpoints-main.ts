import { runCheckpointsBench } from './checkpoints.bench.js';
import { runBenchMain } from './support/bench-main.js';
import { round } from './support/stats.js';

/** `npm run bench:checkpoints`: checkpoint table rows and bytes per 1,000 runs, before and after pruning. */
runBenchMain(
  async (context) => {
    const f = await runCheckpointsBench(context);
    const lines = (['checkpoints', 'checkpoint_writes', 'checkpoint_blobs'] as const).map((table) => {
      const [b, a] = [f.beforePruning[table], f.afterPruning[table]];
      const kb = (bytes: number) => `${round(bytes / 1024, 1)} KiB`;
      return `${table.padEnd(18)} rows ${round(b.rows, 0)} → ${round(a.rows, 0)}   bytes ${kb(b.bytes)} → ${kb(a.bytes)}`;
    });
    const json = JSON.stringify({ checkpoints: f }, (_k, v: unknown) =>
      typeof v === 'number' ? round(v, 1) : v,
    );
    return [
      `Checkpoint tables per 1,000 runs (${f.runs} runs of ${f.toolCallsPerRun} tool calls on ${f.threads} threads), before → after pruning`,
      ...lines,
      `prune job: ${round(f.pruneJob.ms, 0)} ms`,
      json,
    ].join('\n');
  },
  { usesRedis: true },
);
