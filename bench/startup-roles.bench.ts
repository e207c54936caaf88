import { mkdir, readFile } from 'node:fs/promises';
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
  /**
   * CPU time (user + system) the process had used once ready: what the start costs, whatever else the
   * machine runs (wall time grows with the machine's load, this does not).
   */
  cpuMs: Spread;
}

/** User + system CPU milliseconds of a process so far (Linux: /proc/<pid>/stat, 100 ticks per second). */
async function cpuMsOf(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export type StartupFigures = Record<StartupRole, RoleStartup>;

async function startOnce(
  context: BenchContext,
  database: BenchDatabase,
  role: StartupRole,
  label: string,
): Promise<{ wallMs: number; cpuMs: number }> {
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
  const cpuMs = await cpuMsOf(server.pid);
  await server.stop();
  return { wallMs: startupMs, cpuMs };
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
    const cpu: Record<StartupRole, number[]> = { api: [], worker: [], all: [] };
    for (let run = 1; run <= STARTUP_RUNS; run++) {
      for (const role of STARTUP_ROLES) {
        const one = await startOnce(context, database, role, `startup ${role} ${run}/${STARTUP_RUNS}`);
        samples[role].push(one.wallMs);
        cpu[role].push(one.cpuMs);
        context.progress(
          `startup APP_ROLE=${role} ${run}/${STARTUP_RUNS}: ${one.wallMs.toFixed(0)} ms (CPU ${one.cpuMs} ms)`,
        );
      }
    }
    const figures = (role: StartupRole): RoleStartup => ({
      runs: samples[role].length,
      startupMs: spread(samples[role]),
      samplesMs: samples[role],
      cpuMs: spread(cpu[role]),
    });
    return { api: figures('api'), worker: figures('worker'), all: figures('all') };
  } finally {
    await database.drop();
  }
}
