import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { QueueStateLabel } from './metric-labels.js';

/** Every series of this service starts with it (prom-client's default process metrics keep their names). */
export const METRIC_PREFIX = 'yuxi_';

/** One queue's job count in one state, read at scrape time. */
export interface QueueDepth {
  queue: string;
  state: QueueStateLabel;
  jobs: number;
}

const RUN_SECONDS = [0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600];
const QUEUE_WAIT_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const TOOL_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];
const MODEL_SECONDS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 60, 120];
const DISCOVERY_SECONDS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const SANDBOX_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 600];

/**
 * The series of one process, registered on `registry`. `queueDepths` is read at each scrape (it must
 * not throw: a queue it cannot read is left out).
 */
export function createSeries(registry: Registry, queueDepths: () => Promise<QueueDepth[]>) {
  const registers = [registry];
  const name = (suffix: string) => `${METRIC_PREFIX}${suffix}`;
  return {
    runs: new Counter({
      name: name('runs_total'),
      help: 'Runs that ended (their final status committed by this process), by status and agent slug.',
      labelNames: ['status', 'agent'] as const,
      registers,
    }),
    runDuration: new Histogram({
      name: name('run_duration_seconds'),
      help: "Seconds from a run's first claim to its end, for runs ended by the worker executing them.",
      labelNames: ['status'] as const,
      buckets: RUN_SECONDS,
      registers,
    }),
    runQueueWait: new Histogram({
      name: name('run_queue_wait_seconds'),
      help: 'Seconds from the creation of a run to its first claim by a worker.',
      buckets: QUEUE_WAIT_SECONDS,
      registers,
    }),
    activeRuns: new Gauge({
      name: name('runs_active'),
      help: 'Runs this process is executing now.',
      registers,
    }),
    workerHolding: new Gauge({
      name: name('worker_holding'),
      help: '1 while this worker takes no new runs because its event loop lags (RUN_WORKER_MAX_LOOP_DELAY_MS).',
      registers,
    }),
    toolCalls: new Counter({
      name: name('tool_calls_total'),
      help: 'Tool calls, by tool, its source and how the call ended.',
      labelNames: ['tool', 'source', 'outcome'] as const,
      registers,
    }),
    toolCallDuration: new Histogram({
      name: name('tool_call_duration_seconds'),
      help: 'Seconds a tool call took through the execution pipeline (guards, handler, audit).',
      labelNames: ['tool', 'source'] as const,
      buckets: TOOL_SECONDS,
      registers,
    }),
    modelCalls: new Counter({
      name: name('model_calls_total'),
      help: 'Model calls (a call retried after a provider error counts once), by model, purpose and outcome.',
      labelNames: ['model', 'purpose', 'outcome'] as const,
      registers,
    }),
    modelCallDuration: new Histogram({
      name: name('model_call_duration_seconds'),
      help: 'Seconds a model call took until its streamed answer was read.',
      labelNames: ['model', 'purpose'] as const,
      buckets: MODEL_SECONDS,
      registers,
    }),
    modelTokens: new Counter({
      name: name('model_tokens_total'),
      help: 'Tokens the provider reported for model calls, by model, purpose and type (input, output).',
      labelNames: ['model', 'purpose', 'type'] as const,
      registers,
    }),
    sseStreams: new Gauge({
      name: name('sse_streams_open'),
      help: 'Run event streams (SSE) this process is serving now.',
      registers,
    }),
    queueJobs: new Gauge({
      name: name('queue_jobs'),
      help: 'Jobs per queue and state, read from Redis at scrape time (a queue that cannot be read is left out).',
      labelNames: ['queue', 'state'] as const,
      registers,
      async collect() {
        const depths = await queueDepths();
        this.reset();
        for (const { queue, state, jobs } of depths) this.set({ queue, state }, jobs);
      },
    }),
    mcpDiscoveryDuration: new Histogram({
      name: name('mcp_discovery_duration_seconds'),
      help: "Seconds reading an MCP server's tool list took (cached lists are not counted), by server slug and outcome.",
      labelNames: ['server', 'outcome'] as const,
      buckets: DISCOVERY_SECONDS,
      registers,
    }),
    mcpToolCalls: new Counter({
      name: name('mcp_tool_calls_total'),
      help: 'tools/call requests sent to MCP servers, by server slug and how they ended.',
      labelNames: ['server', 'outcome'] as const,
      registers,
    }),
    mcpToolCallDuration: new Histogram({
      name: name('mcp_tool_call_duration_seconds'),
      help: 'Seconds a tools/call request to an MCP server took, by server slug.',
      labelNames: ['server'] as const,
      buckets: TOOL_SECONDS,
      registers,
    }),
    sandboxExecutions: new Counter({
      name: name('sandbox_executions_total'),
      help: 'Commands run in the sandbox, by outcome.',
      labelNames: ['outcome'] as const,
      registers,
    }),
    sandboxDuration: new Histogram({
      name: name('sandbox_execution_duration_seconds'),
      help: 'Seconds a sandboxed command ran, by outcome.',
      labelNames: ['outcome'] as const,
      buckets: SANDBOX_SECONDS,
      registers,
    }),
  };
}

export type MetricSeries = ReturnType<typeof createSeries>;
