import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { threeToolCalls } from '../support/fake-model-server.js';
import { closedLoop } from '../support/load.js';
import { startSplitService } from '../support/split-service.js';
import { conversation, firstErrors } from './conversation.js';
import { type CapacityKnobs, THREE_TOOLS_INPUT, TOOL } from './knobs.js';
import { cpuNow, cpuSince, inBatches, machineLoad, type Pct, pct } from './measure.js';

const CPU_CLIENTS = 10;

const CPU_WARMUP_RUNS = 25;

export interface CpuFigures {
  runs: number;
  clients: number;
  appEnv: Record<string, string>;
  runMs: Pct;
  runsPerSecond: number;
  /** CPU ms per run of the API process, the worker process, PostgreSQL, Redis, and their sum. */
  msPerRun: { api: number; worker: number; postgres: number; redis: number; sum: number };
  loadAverage1m: { start: number; end: number };
}

/** Split API + worker, instant model, 3-tool runs by 10 clients in a closed loop: CPU per run. */
export async function cpuCase(context: BenchContext, knobs: CapacityKnobs): Promise<CpuFigures> {
  const service = await startSplitService(
    context,
    threeToolCalls(TOOL.name, TOOL.args),
    undefined,
    knobs.appEnv,
  );
  try {
    const api = await BenchApi.login(service.api.baseUrl);
    const run = async (threadId: string) => {
      const result = await conversation(api, threadId, THREE_TOOLS_INPUT, 120_000);
      if (!result.completed) throw new Error(`cpu case: a run did not complete: ${firstErrors([result])[0]}`);
      return result.runMs;
    };
    const warmThreads = await inBatches(Array.from({ length: CPU_WARMUP_RUNS }), 10, () => api.newThread());
    context.progress(`capacity cpu: ${CPU_WARMUP_RUNS} warm-up runs`);
    await closedLoop(CPU_WARMUP_RUNS, CPU_CLIENTS, (i) => run(warmThreads[i].id));
    const threads = await inBatches(Array.from({ length: knobs.cpuRuns }), 10, () => api.newThread());
    context.progress(`capacity cpu: ${knobs.cpuRuns} runs, ${CPU_CLIENTS} clients`);
    const pids = { api: service.api.pid, worker: service.worker.pid };
    const load = machineLoad();
    const before = cpuNow(pids, service.database.name);
    const { results, wallMs } = await closedLoop(knobs.cpuRuns, CPU_CLIENTS, (i) => run(threads[i].id));
    const cpu = cpuSince(before, pids, service.database.name);
    const per = (name: string) => (cpu[name] * 1000) / knobs.cpuRuns;
    const msPerRun = {
      api: per('api'),
      worker: per('worker'),
      postgres: per('postgres'),
      redis: per('redis'),
    };
    return {
      runs: knobs.cpuRuns,
      clients: CPU_CLIENTS,
      appEnv: knobs.appEnv,
      runMs: pct(results),
      runsPerSecond: results.length / (wallMs / 1000),
      msPerRun: { ...msPerRun, sum: msPerRun.api + msPerRun.worker + msPerRun.postgres + msPerRun.redis },
      loadAverage1m: { start: load, end: machineLoad() },
    };
  } finally {
    await service.stop();
  }
}
