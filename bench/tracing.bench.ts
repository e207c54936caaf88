import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { BenchApi } from './support/bench-api.js';
import type { BenchContext } from './support/bench-context.js';
import { BENCH_REDIS_PREFIX, BENCH_REDIS_URL } from './support/bench-env.js';
import { onCleanup } from './support/cleanup.js';
import { threeToolCallsOrText } from './support/fake-model-server.js';
import { processCpuSeconds } from './support/process-cpu.js';
import { startSplitService, type SplitService } from './support/split-service.js';
import { deleteRedisKeys } from './support/redis-keys.js';
import { readRunEvents } from './support/sse-reader.js';
import { percentile } from './support/stats.js';

/** Measured runs per case, in `ROUNDS` interleaved blocks (so drift hits both cases alike). */
export const TRACING_RUNS = 100;
const ROUNDS = 5;
const WARMUP_RUNS = 25;
const TOOL = { name: 'write_file', args: { file_path: 'bench.txt', content: 'bench' } };
const INPUT = 'Write the bench file three times.';

export interface TracingCase {
  runs: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  apiCpuMsPerRun: number;
  workerCpuMsPerRun: number;
}

export interface TracingFigures {
  off: TracingCase;
  on: TracingCase & { exportRequests: number; exportedKiBPerRun: number };
  /** on − off, p50 latency and CPU of both processes per run. */
  deltaP50Ms: number;
  deltaCpuMsPerRun: number;
}

/** An OTLP/HTTP endpoint that takes every export and keeps only its size. */
class OtlpSink {
  requests = 0;
  bytes = 0;
  private readonly server: Server = createServer((req, res) => {
    req.on('data', (chunk: Buffer) => (this.bytes += chunk.length));
    req.on('end', () => {
      this.requests += 1;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });

  static async start(): Promise<OtlpSink> {
    const sink = new OtlpSink();
    await new Promise<void>((resolve) => sink.server.listen(0, '127.0.0.1', resolve));
    return sink;
  }

  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

interface Side {
  service: SplitService;
  api: BenchApi;
  latencies: number[];
  cpuSeconds: { api: number; worker: number };
}

async function oneRun(api: BenchApi): Promise<number> {
  const threadId = (await api.newThread()).id;
  const started = performance.now();
  const run = await api.startRun(threadId, INPUT);
  const read = await readRunEvents(`${api.baseUrl}${run.stream_url}`, api.bearer);
  if (!read.ended || read.events.at(-1)?.type !== 'done') throw new Error(`run ${run.run_id} did not end`);
  return performance.now() - started;
}

async function block(side: Side, runs: number): Promise<void> {
  const { api: apiProcess, worker } = side.service;
  const cpu = () => [processCpuSeconds(apiProcess.pid) ?? 0, processCpuSeconds(worker.pid) ?? 0];
  const [apiBefore, workerBefore] = cpu();
  for (let i = 0; i < runs; i++) side.latencies.push(await oneRun(side.api));
  const [apiAfter, workerAfter] = cpu();
  side.cpuSeconds.api += apiAfter - apiBefore;
  side.cpuSeconds.worker += workerAfter - workerBefore;
}

function figures(side: Side): TracingCase {
  const runs = side.latencies.length;
  return {
    runs,
    p50Ms: percentile(side.latencies, 50),
    p99Ms: percentile(side.latencies, 99),
    meanMs: side.latencies.reduce((sum, ms) => sum + ms, 0) / runs,
    // Includes the thread each run is made on (one POST before the clock starts).
    apiCpuMsPerRun: (side.cpuSeconds.api * 1000) / runs,
    workerCpuMsPerRun: (side.cpuSeconds.worker * 1000) / runs,
  };
}

/**
 * Sequential runs (three `write_file` calls each) through the service as deployed (API process, BullMQ,
 * worker process), once without tracing and once exporting every span over OTLP/HTTP (protobuf, the
 * SDK's batch defaults) to a local sink; blocks of the two alternate. Both services run side by side,
 * each on its own database and Redis prefix; only one works at a time.
 */
export async function runTracingBench(context: BenchContext): Promise<TracingFigures> {
  const sink = await OtlpSink.start();
  const respond = threeToolCallsOrText(TOOL.name, TOOL.args);
  const sides: Side[] = [];
  try {
    for (const tracing of [false, true]) {
      // Each service its own queue: neither worker takes the other's runs.
      const prefix = `${BENCH_REDIS_PREFIX}-tracing-${tracing ? 'on' : 'off'}`;
      onCleanup(`delete Redis keys ${prefix}:*`, async () => {
        await deleteRedisKeys(BENCH_REDIS_URL, prefix);
      });
      const service = await startSplitService(context, respond, 1, {
        REDIS_PREFIX: prefix,
        ...(tracing ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint } : {}),
      });
      sides.push({
        service,
        api: await BenchApi.login(service.api.baseUrl),
        latencies: [],
        cpuSeconds: { api: 0, worker: 0 },
      });
    }
    const [off, on] = sides;
    context.progress(`tracing: ${WARMUP_RUNS} warm-up runs per case`);
    for (const side of sides) for (let i = 0; i < WARMUP_RUNS; i++) await oneRun(side.api);
    const exportedBefore = { requests: sink.requests, bytes: sink.bytes };
    context.progress(`tracing: ${TRACING_RUNS} runs per case, off and on interleaved`);
    for (let round = 0; round < ROUNDS; round++)
      for (const side of round % 2 === 0 ? [off, on] : [on, off]) await block(side, TRACING_RUNS / ROUNDS);
    // The last batch of spans leaves within the SDK's schedule delay (5 s by default).
    await new Promise((resolve) => setTimeout(resolve, 6_000));
    const offFigures = figures(off);
    const onFigures = figures(on);
    return {
      off: offFigures,
      on: {
        ...onFigures,
        exportRequests: sink.requests - exportedBefore.requests,
        exportedKiBPerRun: (sink.bytes - exportedBefore.bytes) / 1024 / onFigures.runs,
      },
      deltaP50Ms: onFigures.p50Ms - offFigures.p50Ms,
      deltaCpuMsPerRun:
        onFigures.apiCpuMsPerRun +
        onFigures.workerCpuMsPerRun -
        (offFigures.apiCpuMsPerRun + offFigures.workerCpuMsPerRun),
    };
  } finally {
    for (const side of sides) await side.service.stop();
    await sink.close();
  }
}

export function tracingLines(t: TracingFigures): string[] {
  const row = (name: string, c: TracingCase) =>
    `  ${name.padEnd(12)} p50 ${c.p50Ms.toFixed(1)} ms  p99 ${c.p99Ms.toFixed(1)} ms  mean ${c.meanMs.toFixed(1)} ms  ` +
    `CPU/run api ${c.apiCpuMsPerRun.toFixed(1)} ms, worker ${c.workerCpuMsPerRun.toFixed(1)} ms`;
  return [
    `Tracing: ${t.off.runs} sequential runs per case (3 tool calls each), API + worker processes`,
    row('tracing off', t.off),
    row('tracing on', t.on),
    `  on − off: p50 ${t.deltaP50Ms >= 0 ? '+' : ''}${t.deltaP50Ms.toFixed(1)} ms, CPU ${t.deltaCpuMsPerRun >= 0 ? '+' : ''}${t.deltaCpuMsPerRun.toFixed(1)} ms per run`,
    `  exported: ${t.on.exportRequests} OTLP requests, ${t.on.exportedKiBPerRun.toFixed(1)} KiB per run`,
  ];
}
