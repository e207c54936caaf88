import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { DataSource } from 'typeorm';
import { parseConfig } from '../src/config/parse-config.js';
import { RunContextPreparer } from '../src/modules/agent-runtime/assembly/run-context-preparer.js';
import { ToolAssembler } from '../src/modules/agent-runtime/assembly/tool-assembler.js';
import { ToolVisibility } from '../src/modules/agent-runtime/assembly/tool-visibility.js';
import { WorkerModule } from '../src/worker.module.js';
import { sequentialRuns, type SequentialFigures } from './agent-runs-sequential.js';
import { BenchApi } from './support/bench-api.js';
import type { BenchContext } from './support/bench-context.js';
import type { BenchDatabase } from './support/bench-database.js';
import { ADMIN_USERNAME, appEnvironment, databaseUrl, randomSuffix } from './support/bench-env.js';
import { NO_TOOLS_INPUT, threeToolCallsOrText } from './support/fake-model-server.js';
import { startInProcessGraph, type InProcessGraph } from './support/in-process-graph.js';
import { cpuPerRun } from './support/process-cpu.js';
import { startSplitService } from './support/split-service.js';
import { readRunEvents } from './support/sse-reader.js';
import { closedLoop } from './support/load.js';
import { percentile } from './support/stats.js';

export const RUNS = 200;
export const CLIENTS = 10;
export const WORKER_CONCURRENCY = 10;
export const FANOUT_RUNS = 100;
export const SUBSCRIBERS_PER_RUN = 5;
const ASSEMBLY_SAMPLES = 300;
const TOOL = { name: 'write_file', args: { file_path: 'bench.txt', content: 'bench' } };
const THREE_TOOLS_INPUT = 'Write the bench file three times.';

export interface LatencyFigures {
  runs: number;
  runsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface CpuPerRun {
  apiMsPerRun: number;
  workerMsPerRun: number;
}

export interface AgentRunFigures {
  toolCallsPerRun: number;
  sequential: SequentialFigures;
  queued: LatencyFigures & { firstEventP50Ms: number; firstEventP99Ms: number; cpu: CpuPerRun };
  inProcess: LatencyFigures;
  ratio: { throughput: number; p50: number };
  assemblyP50Ms: number;
  assemblyP99Ms: number;
  fanout: {
    runs: number;
    subscribers: number;
    eventsExpected: number;
    eventsLost: number;
    deliveryP50Ms: number;
    deliveryP99Ms: number;
    /** Only events created once every subscriber had its first frame (the start burst left out). */
    afterBurst: { events: number; deliveryP50Ms: number; deliveryP99Ms: number };
  };
}

function latencies(samples: number[], wallMs: number): LatencyFigures {
  return {
    runs: samples.length,
    runsPerSecond: samples.length / (wallMs / 1000),
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
  };
}

/** POST → `done`, through the API process, BullMQ and the worker process, read over SSE. */
async function queuedRuns(api: BenchApi) {
  const threads = await Promise.all(Array.from({ length: RUNS }, () => api.newThread()));
  const firstEvent: number[] = [];
  const { results, wallMs } = await closedLoop(RUNS, CLIENTS, async (i) => {
    const started = performance.now();
    const run = await api.startRun(threads[i].id, THREE_TOOLS_INPUT);
    const read = await readRunEvents(`${api.baseUrl}${run.stream_url}`, api.bearer);
    if (!read.ended || read.events.at(-1)?.type !== 'done')
      throw new Error(
        `run ${run.run_id} did not end: ended=${read.ended} ${read.events.map((e) => `${e.seq}:${e.type}`).join(',')}`,
      );
    firstEvent.push(read.firstFrameAt! - started);
    return performance.now() - started;
  });
  return {
    ...latencies(results, wallMs),
    firstEventP50Ms: percentile(firstEvent, 50),
    firstEventP99Ms: percentile(firstEvent, 99),
  };
}

/** The same graph and checkpointer in this process, `CLIENTS` runs at a time. */
async function inProcessRuns(graph: InProcessGraph) {
  const { results, wallMs } = await closedLoop(RUNS, CLIENTS, async () => {
    const started = performance.now();
    await graph.run(THREE_TOOLS_INPUT);
    return performance.now() - started;
  });
  return latencies(results, wallMs);
}

/** Steps 1-3 of assembly for a run of the builtin chatbot, in a worker application context. */
async function assemblyTimes(database: BenchDatabase, dataDir: string): Promise<number[]> {
  const config = parseConfig({
    ...appEnvironment({ databaseName: database.name, port: 1, dataDir }),
    REDIS_PREFIX: `yuxi-bench-assembly-${randomSuffix()}`,
    DB_MIGRATE_ON_START: 'false',
  });
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config), { logger: false });
  try {
    const [user] = await app
      .get(DataSource)
      .query<{ id: string }[]>(`SELECT id FROM users WHERE username = $1`, [ADMIN_USERNAME]);
    const [agent] = await app
      .get(DataSource)
      .query<{ id: string }[]>(`SELECT id FROM agents WHERE slug = 'default-chatbot'`);
    const preparer = app.get(RunContextPreparer);
    const assembler = app.get(ToolAssembler);
    const visibility = app.get(ToolVisibility);
    const samples: number[] = [];
    for (let i = 0; i < ASSEMBLY_SAMPLES; i++) {
      const started = performance.now();
      const runId = randomUUID();
      const { actor, snapshot } = await preparer.prepare({
        userId: user.id,
        agentId: agent.id,
        agentSlug: 'default-chatbot',
        model: null,
      });
      const threadId = randomUUID();
      const { executable } = await assembler.assemble({ runId, threadId, actor, snapshot });
      await visibility.visible({ runId, threadId, snapshot, activatedSkills: new Set() }, executable);
      samples.push(performance.now() - started);
    }
    return samples;
  } finally {
    await app.close();
  }
}

/** 100 runs started at once, 5 SSE subscribers each: every event must reach every subscriber. */
async function fanout(api: BenchApi, database: BenchDatabase) {
  const threads = await Promise.all(Array.from({ length: FANOUT_RUNS }, () => api.newThread()));
  const runs = await Promise.all(threads.map((thread) => api.startRun(thread.id, THREE_TOOLS_INPUT)));
  const reads = await Promise.all(
    runs.flatMap((run) =>
      Array.from({ length: SUBSCRIBERS_PER_RUN }, async () => {
        const connectedAt = Date.now();
        return {
          run: run.run_id,
          connectedAt,
          read: await readRunEvents(`${api.baseUrl}${run.stream_url}`, api.bearer),
        };
      }),
    ),
  );
  const client = new pg.Client({ connectionString: databaseUrl(database.name) });
  await client.connect();
  const counts = new Map(
    (
      await client.query<{ run_id: string; count: number }>(
        `SELECT run_id, count(*)::int AS count FROM run_events WHERE run_id = ANY($1) GROUP BY run_id`,
        [runs.map((r) => r.run_id)],
      )
    ).rows.map((row) => [row.run_id, row.count]),
  );
  await client.end();
  let expected = 0;
  let lost = 0;
  const delivery: number[] = [];
  const afterBurst: number[] = [];
  // The burst: 100 POSTs and 500 connections with their replays; it is over once every stream is open.
  const burstEnd = Math.max(...reads.map(({ read }) => read.events[0]?.receivedAt ?? 0));
  for (const { run, connectedAt, read } of reads) {
    const count = counts.get(run) ?? 0;
    expected += count;
    const seqs = new Set(read.events.map((e) => e.seq));
    for (let seq = 1; seq <= count; seq++) if (!seqs.has(seq)) lost++;
    // Only events created after the subscriber connected were delivered live.
    for (const event of read.events)
      if (event.createdAt > connectedAt) {
        delivery.push(event.receivedAt - event.createdAt);
        if (event.createdAt > burstEnd) afterBurst.push(event.receivedAt - event.createdAt);
      }
  }
  return {
    runs: FANOUT_RUNS,
    subscribers: reads.length,
    eventsExpected: expected,
    eventsLost: lost,
    deliveryP50Ms: percentile(delivery, 50),
    deliveryP99Ms: percentile(delivery, 99),
    afterBurst: {
      events: afterBurst.length,
      deliveryP50Ms: afterBurst.length === 0 ? Number.NaN : percentile(afterBurst, 50),
      deliveryP99Ms: afterBurst.length === 0 ? Number.NaN : percentile(afterBurst, 99),
    },
  };
}

/**
 * Agent runs through the whole path (API process → PostgreSQL → BullMQ → one worker process with
 * concurrency 10 → LangGraph with the PostgreSQL checkpointer → fake model over HTTP with three tool
 * calls → SSE), against the same graph and checkpointer invoked in-process.
 */
export async function runAgentRunsBench(context: BenchContext): Promise<AgentRunFigures> {
  // The in-process graph logs through Nest's default logger here; the servers run at `warn`/`info`.
  Logger.overrideLogger(['error', 'warn']);
  const service = await startSplitService(
    context,
    threeToolCallsOrText(TOOL.name, TOOL.args),
    WORKER_CONCURRENCY,
  );
  const { database, fake, dataDir, api: apiServer, worker } = service;
  const graph = startInProcessGraph(database, fake.baseUrl, TOOL.name, CLIENTS + 2);
  try {
    const api = await BenchApi.login(apiServer.baseUrl);
    process.on('exit', () => process.stderr.write(apiServer.capturedOutput.slice(-3000)));
    const pids = { api: apiServer.pid, worker: worker.pid };
    context.progress('agent runs: sequential, one run at a time (service and in-process, interleaved)');
    const sequential = await sequentialRuns({
      api,
      fake,
      graph,
      pids,
      inputs: { threeTools: THREE_TOOLS_INPUT, noTools: NO_TOOLS_INPUT },
    });
    // A quick A/B of two builds needs only this part (`BENCH_RUNS_SEQUENTIAL_ONLY=1`).
    if (process.env.BENCH_RUNS_SEQUENTIAL_ONLY === '1') return { toolCallsPerRun: 3, sequential } as never;
    context.progress(`agent runs: ${RUNS} runs through the queue, ${CLIENTS} at a time`);
    const { result: queued, cpu } = await cpuPerRun(pids, RUNS, () => queuedRuns(api));
    context.progress(`agent runs: ${RUNS} runs of the same graph in-process`);
    const inProcess = await inProcessRuns(graph);
    context.progress(`agent runs: ${FANOUT_RUNS} runs × ${SUBSCRIBERS_PER_RUN} SSE subscribers`);
    const fan = await fanout(api, database);
    context.progress('agent runs: assembly steps 1-3');
    const assembly = await assemblyTimes(database, dataDir);
    return {
      toolCallsPerRun: 3,
      sequential,
      queued: { ...queued, cpu },
      inProcess,
      ratio: {
        throughput: queued.runsPerSecond / inProcess.runsPerSecond,
        p50: queued.p50Ms / inProcess.p50Ms,
      },
      assemblyP50Ms: percentile(assembly, 50),
      assemblyP99Ms: percentile(assembly, 99),
      fanout: fan,
    };
  } finally {
    await graph.close();
    await service.stop();
  }
}
