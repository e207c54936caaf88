import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { appEnvironment } from './bench-env.js';
import { createBenchDatabase, type BenchDatabase } from './bench-database.js';
import { onCleanup } from './cleanup.js';
import { freePort } from './free-port.js';
import { ServerProcess } from './server-process.js';

/** Paths shared by the benches; `dist/bench/support/…` → the project root is three levels up. */
export interface BenchContext {
  readonly projectRoot: string;
  /** `npm run start:prod`'s entry point. */
  readonly appScript: string;
  readonly helloScript: string;
  /** A temp dir: the servers' working directory (no `.env` there, so their environment is exactly ours). */
  readonly workDir: string;
  progress(message: string): void;
}

export async function createBenchContext(): Promise<BenchContext> {
  const projectRoot = resolve(__dirname, '..', '..', '..');
  const appScript = join(projectRoot, 'dist', 'src', 'main.js');
  const helloScript = join(projectRoot, 'dist', 'bench', 'hello', 'hello-main.js');
  for (const script of [appScript, helloScript]) {
    if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run bench\` (it builds first)`);
  }
  const workDir = await mkdtemp(join(tmpdir(), 'yuxi-bench-'));
  onCleanup(`remove ${workDir}`, () => rm(workDir, { recursive: true, force: true }));
  return {
    projectRoot,
    appScript,
    helloScript,
    workDir,
    progress: (message) => process.stderr.write(`[bench] ${message}\n`),
  };
}

/** Starts `node dist/src/main.js` on `database` with its own port and DATA_DIR; resolves once healthy. */
export async function startApp(
  context: BenchContext,
  database: BenchDatabase,
  label: string,
): Promise<{ server: ServerProcess; startupMs: number }> {
  const port = await freePort();
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  return ServerProcess.start({
    label,
    script: context.appScript,
    port,
    env: appEnvironment({ databaseName: database.name, port, dataDir }),
    cwd: context.workDir,
    healthPath: '/api/health',
  });
}

export { createBenchDatabase };
