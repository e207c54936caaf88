import type { BenchDatabase } from './support/bench-database.js';
import { createBenchDatabase, startApp, type BenchContext } from './support/bench-context.js';
import { spread, type Spread } from './support/stats.js';

export const COLD_START_RUNS = 5;

export interface ColdStartCase {
  runs: number;
  /** Spawn of `node dist/src/main.js` → first `GET /api/health` 200 (polled every 20 ms). */
  startupMs: Spread;
  /** SIGTERM → process exit. */
  shutdownMs: Spread;
  startupSamplesMs: number[];
  shutdownSamplesMs: number[];
}

export interface ColdStartFigures {
  emptyDatabase: ColdStartCase;
  migratedDatabase: ColdStartCase;
}

async function timeOneStart(context: BenchContext, database: BenchDatabase, label: string) {
  const { server, startupMs } = await startApp(context, database, label);
  const shutdownMs = await server.stop();
  context.progress(
    `${label}: healthy after ${startupMs.toFixed(0)} ms, exited ${shutdownMs.toFixed(0)} ms after SIGTERM`,
  );
  return { startupMs, shutdownMs };
}

function summarize(samples: { startupMs: number; shutdownMs: number }[]): ColdStartCase {
  const startup = samples.map((s) => s.startupMs);
  const shutdown = samples.map((s) => s.shutdownMs);
  return {
    runs: samples.length,
    startupMs: spread(startup),
    shutdownMs: spread(shutdown),
    startupSamplesMs: startup,
    shutdownSamplesMs: shutdown,
  };
}

/**
 * (a) Empty database: each run gets a brand-new database, so every start runs all migrations and seeds
 * the superadmin. (b) Migrated database: five more starts on the database of the last (a) run.
 */
export async function runColdStartBench(context: BenchContext): Promise<ColdStartFigures> {
  const empty: { startupMs: number; shutdownMs: number }[] = [];
  let migrated: BenchDatabase | null = null;
  for (let run = 1; run <= COLD_START_RUNS; run++) {
    const database = await createBenchDatabase();
    empty.push(await timeOneStart(context, database, `cold start, empty db ${run}/${COLD_START_RUNS}`));
    if (run < COLD_START_RUNS) await database.drop();
    else migrated = database;
  }
  const again: { startupMs: number; shutdownMs: number }[] = [];
  for (let run = 1; run <= COLD_START_RUNS; run++) {
    again.push(await timeOneStart(context, migrated!, `cold start, migrated db ${run}/${COLD_START_RUNS}`));
  }
  await migrated!.drop();
  return { emptyDatabase: summarize(empty), migratedDatabase: summarize(again) };
}
