import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './support/bench-context.js';
import { createBenchDatabase, type BenchDatabase } from './support/bench-database.js';
import { appEnvironment } from './support/bench-env.js';
import { freePort } from './support/free-port.js';
import { ServerProcess } from './support/server-process.js';
import { spread, type Spread } from './support/stats.js';

export const STARTUP_ROLES = ['api', 'worker', 'all'] as const;
export type StartupRole = (typeof STARTUP_ROLES)[number];
export const STARTUP_RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);

/** What "started" means per role: the worker has no HTTP, so it is ready once its consumer logs it. */
const WORKER_READY = 'agent-runs worker started';

export interface RoleStartup {
  runs: number;
  /** Spawn of `node dist/src/main.js` → first `GET /api/health` 200 (api, all) or the worker's ready line. */
  startupMs: Spread;
  samplesMs: number[];
}

export type StartupFigures = Record<StartupRole, RoleStartup>;

async function startOnce(
  context: BenchContext,
  database: BenchDatabase,
  role: StartupRole,
  label: string,
): Promise<number> {
  const port = await freePort();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const env = { ...appEnvironment({ databaseName: database.name, port, dataDir }), APP_ROLE: role };
  const isWorker = role === 'worker';
  const { server, startupMs } = await ServerProcess.start({
    label,
    script: context.appScript,
    port,
    env: isWorker ? { ...env, LOG_LEVEL: 'info' } : env,
    cwd: context.workDir,
    healthPath: isWorker ? '' : '/api/health',
    ...(isWorker ? { readyOutput: WORKER_READY } : {}),
  });
  await server.stop();
  return startupMs;
}

/**
 * Startup per process role on a migrated database (one unmeasured start migrates it first). The roles
 * take turns (api, worker, all, api, …) so a slow spell of the machine spreads over all of them.
 */
export async function runStartupRolesBench(context: BenchContext): Promise<StartupFigures> {
  const database = await createBenchDatabase();
  try {
    await startOnce(context, database, 'all', 'startup warm-up (migrations)');
    const samples: Record<StartupRole, number[]> = { api: [], worker: [], all: [] };
    for (let run = 1; run <= STARTUP_RUNS; run++) {
      for (const role of STARTUP_ROLES) {
        const ms = await startOnce(context, database, role, `startup ${role} ${run}/${STARTUP_RUNS}`);
        samples[role].push(ms);
        context.progress(`startup APP_ROLE=${role} ${run}/${STARTUP_RUNS}: ${ms.toFixed(0)} ms`);
      }
    }
    const figures = (role: StartupRole): RoleStartup => ({
      runs: samples[role].length,
      startupMs: spread(samples[role]),
      samplesMs: samples[role],
    });
    return { api: figures('api'), worker: figures('worker'), all: figures('all') };
  } finally {
    await database.drop();
  }
}
