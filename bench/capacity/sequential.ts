import { sequentialRuns } from '../agent-runs-sequential.js';
import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { NO_TOOLS_INPUT, threeToolCallsOrText } from '../support/fake-model-server.js';
import { startSingleService } from '../support/split-service.js';
import { type CapacityKnobs, THREE_TOOLS_INPUT, TOOL } from './knobs.js';
import { machineLoad } from './measure.js';

export interface SequentialCapacityFigures {
  runs: number;
  appEnv: Record<string, string>;
  threeToolP50Ms: number;
  noToolP50Ms: number;
  noToolP99Ms: number;
  platformMsPerToolStep: number;
  /** CPU of the one process per run. */
  cpuMsPerRun: { threeTools: number; noTools: number };
  loadAverage1m: { start: number; end: number };
}

/** One process `APP_ROLE=all`, instant model, one client: what a tool step and a bare run cost. */
export async function sequentialCase(
  context: BenchContext,
  knobs: CapacityKnobs,
): Promise<SequentialCapacityFigures> {
  const service = await startSingleService(context, threeToolCallsOrText(TOOL.name, TOOL.args), {
    role: 'all',
    extraEnv: knobs.appEnv,
    label: 'app (sequential)',
  });
  try {
    const api = await BenchApi.login(service.app.baseUrl);
    context.progress('capacity sequential: 3-tool and no-tool runs, one at a time');
    const load = machineLoad();
    // The one process is both; its CPU is read as the "api" figure (the "worker" one is the same).
    const figures = await sequentialRuns({
      api,
      fake: service.fake,
      pids: { api: service.app.pid, worker: service.app.pid },
      inputs: { threeTools: THREE_TOOLS_INPUT, noTools: NO_TOOLS_INPUT },
    });
    return {
      runs: figures.threeTools.runs,
      appEnv: knobs.appEnv,
      threeToolP50Ms: figures.threeTools.queuedP50Ms,
      noToolP50Ms: figures.noTools.queuedP50Ms,
      noToolP99Ms: figures.noTools.queuedP99Ms,
      platformMsPerToolStep: figures.platformMsPerToolStep,
      cpuMsPerRun: { threeTools: figures.threeTools.apiCpuMsPerRun, noTools: figures.noTools.apiCpuMsPerRun },
      loadAverage1m: { start: load, end: machineLoad() },
    };
  } finally {
    await service.stop();
  }
}
