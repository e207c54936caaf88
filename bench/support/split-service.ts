import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BenchContext } from './bench-context.js';
import { createBenchDatabase, type BenchDatabase } from './bench-database.js';
import { appEnvironment } from './bench-env.js';
import { FakeModelServer, type ChatMessage, type Reply } from './fake-model-server.js';
import { freePort } from './free-port.js';
import { ServerProcess } from './server-process.js';

/** The service as deployed: an API process and a worker process on a fresh database, a fake model. */
export interface SplitService {
  database: BenchDatabase;
  fake: FakeModelServer;
  dataDir: string;
  api: ServerProcess;
  worker: ServerProcess;
  stop(): Promise<void>;
}

/** One app process (`APP_ROLE=all`, or `api` alone) on a fresh database, a fake model. */
export interface SingleService {
  database: BenchDatabase;
  fake: FakeModelServer;
  dataDir: string;
  app: ServerProcess;
  stop(): Promise<void>;
}

/** A fresh database, the fake model and the environment every process of the service gets. */
async function prepareService(
  context: BenchContext,
  respond: (messages: ChatMessage[]) => Reply,
  extraEnv: Record<string, string>,
) {
  const database = await createBenchDatabase();
  const fake = await FakeModelServer.start(respond);
  const dataDir = join(context.workDir, 'data', database.name);
  await mkdir(dataDir, { recursive: true });
  const port = await freePort();
  const env = {
    ...appEnvironment({ databaseName: database.name, port, dataDir }),
    OPENAI_BASE_URL: fake.baseUrl,
    DEFAULT_MODEL: 'bench-model',
    ...extraEnv,
  };
  return { database, fake, dataDir, port, env };
}

/** The whole service in one process (`role` `all`), or an API process with no worker (`api`). */
export async function startSingleService(
  context: BenchContext,
  respond: (messages: ChatMessage[]) => Reply,
  options: { role: 'all' | 'api'; extraEnv?: Record<string, string>; label?: string },
): Promise<SingleService> {
  const { database, fake, dataDir, port, env } = await prepareService(
    context,
    respond,
    options.extraEnv ?? {},
  );
  const { server: app } = await ServerProcess.start({
    label: options.label ?? `app (${options.role})`,
    script: context.appScript,
    port,
    env: { ...env, APP_ROLE: options.role },
    cwd: context.workDir,
    healthPath: '/api/health',
  });
  return {
    database,
    fake,
    dataDir,
    app,
    async stop() {
      await app.stop();
      await fake.close();
      await database.drop();
    },
  };
}

export async function startSplitService(
  context: BenchContext,
  respond: (messages: ChatMessage[]) => Reply,
  /** The worker's RUN_WORKER_CONCURRENCY; undefined leaves the app's default (or `extraEnv`'s). */
  workerConcurrency: number | undefined,
  /** More environment for both processes. */
  extraEnv: Record<string, string> = {},
): Promise<SplitService> {
  const { database, fake, dataDir, port, env } = await prepareService(context, respond, extraEnv);
  const { server: api } = await ServerProcess.start({
    label: 'api',
    script: context.appScript,
    port,
    env: { ...env, APP_ROLE: 'api' },
    cwd: context.workDir,
    healthPath: '/api/health',
  });
  const { server: worker } = await ServerProcess.start({
    label: 'worker',
    script: context.appScript,
    port,
    env: {
      ...env,
      APP_ROLE: 'worker',
      LOG_LEVEL: 'info',
      ...(workerConcurrency === undefined ? {} : { RUN_WORKER_CONCURRENCY: String(workerConcurrency) }),
    },
    cwd: context.workDir,
    healthPath: '',
    readyOutput: 'agent-runs worker started',
  });
  return {
    database,
    fake,
    dataDir,
    api,
    worker,
    async stop() {
      await worker.stop();
      await api.stop();
      await fake.close();
      await database.drop();
    },
  };
}
