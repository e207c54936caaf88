import { performance } from 'node:perf_hooks';
import type { BenchApi } from './support/bench-api.js';
import type { FakeModelServer } from './support/fake-model-server.js';
import type { InProcessGraph } from './support/in-process-graph.js';
import { processCpuSeconds } from './support/process-cpu.js';
import { readRunEvents } from './support/sse-reader.js';
import { percentile } from './support/stats.js';

/** Runs per case and path, in `ROUNDS` interleaved blocks (so drift hits every case alike). */
export const SEQUENTIAL_RUNS = 100;
const ROUNDS = 5;
/**
 * Runs per case and path before the measured ones: a long-running service has compiled its hot paths;
 * five were not enough for that (the service's p50 kept falling for about twenty runs).
 */
const WARMUP_RUNS = 25;

export interface SequentialCase {
  toolSteps: number;
  runs: number;
  /** POST → `done` on the SSE stream, one run at a time. */
  queuedP50Ms: number;
  queuedP99Ms: number;
  /** The same graph in the bench process, one run at a time. */
  inProcessP50Ms: number;
  inProcessP99Ms: number;
  ratioP50: number;
  /** What the fake model spent answering, per queued run (request arrival → end of its reply). */
  modelMsPerRun: number;
  /** CPU per queued run of the API and worker processes. */
  apiCpuMsPerRun: number;
  workerCpuMsPerRun: number;
}

export interface SequentialFigures {
  threeTools: SequentialCase;
  noTools: SequentialCase;
  /** (3-tool run − its model time) − (no-tool run − its model time), divided by 3: what a tool step adds. */
  platformMsPerToolStep: number;
  /** The same difference for the in-process graph: what the graph, checkpointer and model client add. */
  inProcessMsPerToolStep: number;
}

export interface SequentialSetup {
  api: BenchApi;
  fake: FakeModelServer;
  /** Absent: only the service is measured (the in-process figures are NaN). */
  graph?: InProcessGraph;
  pids: { api: number; worker: number };
  inputs: { threeTools: string; noTools: string };
}

interface Samples {
  queued: number[];
  inProcess: number[];
  modelMs: number;
  apiCpuSeconds: number;
  workerCpuSeconds: number;
}

async function queuedRun(api: BenchApi, threadId: string, input: string): Promise<number> {
  const started = performance.now();
  const run = await api.startRun(threadId, input);
  const read = await readRunEvents(`${api.baseUrl}${run.stream_url}`, api.bearer);
  const elapsed = performance.now() - started;
  if (!read.ended || read.events.at(-1)?.type !== 'done')
    throw new Error(`run ${run.run_id} did not end: ${read.events.map((e) => e.type).join(',')}`);
  return elapsed;
}

async function inProcessRun(graph: InProcessGraph, input: string): Promise<number> {
  const started = performance.now();
  await graph.run(input);
  return performance.now() - started;
}

/** A block of queued runs with what the model and the two processes spent on them. */
async function queuedBlock(setup: SequentialSetup, input: string, runs: number, into: Samples) {
  const cpu = () => [processCpuSeconds(setup.pids.api) ?? 0, processCpuSeconds(setup.pids.worker) ?? 0];
  for (let i = 0; i < runs; i++) {
    // The thread is made before the clock and CPU readings start (it is not part of the run).
    const thread = await setup.api.newThread();
    const modelBefore = setup.fake.busyMs;
    const [apiBefore, workerBefore] = cpu();
    into.queued.push(await queuedRun(setup.api, thread.id, input));
    const [apiAfter, workerAfter] = cpu();
    into.modelMs += setup.fake.busyMs - modelBefore;
    into.apiCpuSeconds += apiAfter - apiBefore;
    into.workerCpuSeconds += workerAfter - workerBefore;
  }
}

function figures(toolSteps: number, s: Samples): SequentialCase {
  const runs = s.queued.length;
  const queuedP50Ms = percentile(s.queued, 50);
  const inProcess = (p: number) => (s.inProcess.length === 0 ? Number.NaN : percentile(s.inProcess, p));
  const inProcessP50Ms = inProcess(50);
  return {
    toolSteps,
    runs,
    queuedP50Ms,
    queuedP99Ms: percentile(s.queued, 99),
    inProcessP50Ms,
    inProcessP99Ms: inProcess(99),
    ratioP50: queuedP50Ms / inProcessP50Ms,
    modelMsPerRun: s.modelMs / runs,
    apiCpuMsPerRun: (s.apiCpuSeconds * 1000) / runs,
    workerCpuMsPerRun: (s.workerCpuSeconds * 1000) / runs,
  };
}

/**
 * One client, one run at a time: a run with three `write_file` calls and a run with none, each
 * through the service (POST → `done` over SSE) and through the in-process graph, interleaved.
 */
export async function sequentialRuns(setup: SequentialSetup): Promise<SequentialFigures> {
  const cases = [
    { input: setup.inputs.threeTools, samples: emptySamples() },
    { input: setup.inputs.noTools, samples: emptySamples() },
  ];
  for (const { input } of cases)
    for (let i = 0; i < WARMUP_RUNS; i++) {
      await queuedRun(setup.api, (await setup.api.newThread()).id, input);
      if (setup.graph !== undefined) await inProcessRun(setup.graph, input);
    }
  const perRound = SEQUENTIAL_RUNS / ROUNDS;
  for (let round = 0; round < ROUNDS; round++)
    for (const { input, samples } of cases) {
      await queuedBlock(setup, input, perRound, samples);
      if (setup.graph !== undefined)
        for (let i = 0; i < perRound; i++) samples.inProcess.push(await inProcessRun(setup.graph, input));
    }
  const threeTools = figures(3, cases[0].samples);
  const noTools = figures(0, cases[1].samples);
  const platform = (c: SequentialCase) => c.queuedP50Ms - c.modelMsPerRun;
  return {
    threeTools,
    noTools,
    platformMsPerToolStep: (platform(threeTools) - platform(noTools)) / 3,
    inProcessMsPerToolStep: (threeTools.inProcessP50Ms - noTools.inProcessP50Ms) / 3,
  };
}

function emptySamples(): Samples {
  return { queued: [], inProcess: [], modelMs: 0, apiCpuSeconds: 0, workerCpuSeconds: 0 };
}
