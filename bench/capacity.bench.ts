import { setMaxListeners } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { sequentialRuns } from './agent-runs-sequential.js';
import { BenchApi } from './support/bench-api.js';
import type { BenchContext } from './support/bench-context.js';
import { randomSuffix } from './support/bench-env.js';
import {
  NO_TOOLS_INPUT,
  oneToolCall,
  threeToolCalls,
  threeToolCallsOrText,
} from './support/fake-model-server.js';
import { closedLoop } from './support/load.js';
import { commandCpuSeconds, processCpuSeconds, processRssBytes, sampleRss } from './support/process-cpu.js';
import { startSingleService, startSplitService } from './support/split-service.js';
import { readRunEvents } from './support/sse-reader.js';
import { percentile } from './support/stats.js';

export const CAPACITY_CASES = ['burst', 'open-loop', 'cpu', 'sequential', 'sse'] as const;
export type CapacityCase = (typeof CAPACITY_CASES)[number];

const TOOL = { name: 'write_file', args: { file_path: 'bench.txt', content: 'bench' } };
const ONE_TOOL_INPUT = 'Write the bench file once, then answer.';
const THREE_TOOLS_INPUT = 'Write the bench file three times.';
/** The events that carry the model's output: its first one is the client's time to first token. */
const MODEL_OUTPUT = new Set(['message_delta', 'message', 'tool_call']);
/**
 * Set for every case: the users are made before the clock starts, and at the default scrypt cost
 * (2^17, two at a time) 500 users and their logins take minutes. Only password hashing changes.
 */
const SETUP_ENV = { PASSWORD_HASH_LOG_N: '14' };
const CPU_CLIENTS = 10;
const CPU_WARMUP_RUNS = 25;
/** SSE case: streams per run (so 5,000 streams are 50 parked runs of one user). */
const STREAMS_PER_RUN = 100;
const STREAM_OPEN_PARALLEL = 100;

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number, got ${raw}`);
  return value;
}

export interface CapacityKnobs {
  conversations: number;
  rate: number;
  seconds: number;
  streams: number;
  modelDelayMs: number;
  cpuRuns: number;
  drainSeconds: number;
  timeoutSeconds: number;
  /** BENCH_CAPACITY_APP_ENV: more environment for every app process. */
  appEnv: Record<string, string>;
}

export function capacityKnobs(): CapacityKnobs {
  const rawEnv = process.env.BENCH_CAPACITY_APP_ENV;
  const appEnv = rawEnv === undefined || rawEnv === '' ? {} : (JSON.parse(rawEnv) as unknown);
  if (typeof appEnv !== 'object' || appEnv === null || Array.isArray(appEnv))
    throw new Error('BENCH_CAPACITY_APP_ENV must be a JSON object');
  return {
    conversations: envNumber('BENCH_CAPACITY_CONVERSATIONS', 500),
    rate: envNumber('BENCH_CAPACITY_RATE', 40),
    seconds: envNumber('BENCH_CAPACITY_SECONDS', 60),
    streams: envNumber('BENCH_CAPACITY_STREAMS', 5000),
    modelDelayMs: envNumber('BENCH_CAPACITY_MODEL_MS', 2000),
    cpuRuns: envNumber('BENCH_CAPACITY_CPU_RUNS', 200),
    drainSeconds: envNumber('BENCH_CAPACITY_DRAIN_SECONDS', 120),
    timeoutSeconds: envNumber('BENCH_CAPACITY_TIMEOUT_SECONDS', 600),
    appEnv: Object.fromEntries(Object.entries(appEnv).map(([k, v]) => [k, String(v)])),
  };
}

export interface Pct {
  n: number;
  p50: number;
  p99: number;
}

function pct(samples: number[]): Pct {
  return samples.length === 0
    ? { n: 0, p50: Number.NaN, p99: Number.NaN }
    : { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * CPU seconds so far of the named app processes, of PostgreSQL (the backends of `database` and the
 * shared background processes: other databases' backends are left out, as are backends that exit
 * during the case) and of every `redis-server` (shared with anything else using that Redis).
 */
function cpuNow(pids: Record<string, number>, database: string): Record<string, number> {
  // A client backend's title is `postgres: <cluster>: <user> <database> <host>(<port>) <state>`.
  const ours = (cmdline: string) => cmdline.includes(` ${database} `) || !/\(\d+\)/.test(cmdline);
  return {
    ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, processCpuSeconds(pid) ?? 0])),
    postgres: commandCpuSeconds('postgres', ours),
    redis: commandCpuSeconds('redis-server'),
    // The clients and the fake model share the machine's cores with the service.
    bench: processCpuSeconds(process.pid) ?? 0,
  };
}

function cpuSince(
  before: Record<string, number>,
  pids: Record<string, number>,
  database: string,
): Record<string, number> {
  const after = cpuNow(pids, database);
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - before[name]]));
}

/** Runs `job` on every item, at most `parallel` at once, in order of the items. */
async function inBatches<T, R>(items: T[], parallel: number, job: (item: T, i: number) => Promise<R>) {
  const { results } = await closedLoop(items.length, parallel, async (i) => ({
    i,
    r: await job(items[i], i),
  }));
  return results.sort((a, b) => a.i - b.i).map(({ r }) => r);
}

/** `count` users made through `POST /api/users` by the admin, each logged in. */
async function createUsers(admin: BenchApi, count: number, context: BenchContext): Promise<BenchApi[]> {
  const started = performance.now();
  const prefix = `cap-${randomSuffix()}`;
  const users = await inBatches(
    Array.from({ length: count }, (_, i) => i),
    4,
    (i) => admin.createUser(`${prefix}-${i}`, `bench-password-${i}`),
  );
  context.progress(`capacity: ${count} users made in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return users;
}

interface Conversation {
  completed: boolean;
  status: string | null;
  /** POST → `done` arrived. */
  runMs: number;
  /** POST → the first event carrying model output. */
  ttftMs: number | null;
  /** The type of that first event. */
  firstOutputType: string | null;
  /** Times the server ended the stream before `done` and the client reopened it. */
  reconnects: number;
  /** Frame arrival − the event's `created_at` (ms), for events created after the stream was opened. */
  deliveryMs: number[];
  error?: string;
}

/** Reconnections (`?after=<last seq>`, as an EventSource does) a stream that ends without `done` gets. */
const MAX_RECONNECTS = 3;

/**
 * One conversation turn: POST the run, open its stream at once, read it to `done`. A stream the
 * server ends before `done` is reopened after the last event seen (counted in `reconnects`).
 */
async function conversation(user: BenchApi, threadId: string, input: string, timeoutMs: number) {
  const started = performance.now();
  const deadline = started + timeoutMs;
  try {
    const run = await user.startRun(threadId, input);
    let firstOutput: number | null = null;
    let firstOutputType: string | null = null;
    let status: string | null = null;
    let lastSeq = 0;
    let reconnects = 0;
    const deliveryMs: number[] = [];
    for (;;) {
      const connectedAt = Date.now();
      const read = await readRunEvents(
        `${user.baseUrl}${run.stream_url}${lastSeq > 0 ? `?after=${lastSeq}` : ''}`,
        user.bearer,
        Math.max(1, deadline - performance.now()),
        (frame) => {
          lastSeq = Math.max(lastSeq, frame.seq);
          if (firstOutput === null && MODEL_OUTPUT.has(frame.type)) {
            firstOutput = frame.arrivedAt;
            firstOutputType = frame.type;
          }
          if (frame.type === 'done') status = String(frame.payload.status);
        },
      );
      for (const e of read.events)
        if (e.createdAt >= connectedAt) deliveryMs.push(e.receivedAt - e.createdAt);
      if (status !== null || !read.ended || reconnects >= MAX_RECONNECTS) break;
      reconnects++;
    }
    return {
      completed: status === 'completed',
      status,
      runMs: performance.now() - started,
      ttftMs: firstOutput === null ? null : firstOutput - started,
      firstOutputType,
      reconnects,
      deliveryMs,
    } satisfies Conversation;
  } catch (error) {
    return {
      completed: false,
      status: null,
      runMs: performance.now() - started,
      ttftMs: null,
      firstOutputType: null,
      reconnects: 0,
      deliveryMs: [],
      error: error instanceof Error ? error.message : String(error),
    } satisfies Conversation;
  }
}

function firstErrors(results: Conversation[]): string[] {
  const errors = results
    .filter((r) => !r.completed)
    .map((r) => r.error ?? `status ${r.status ?? 'none (no done)'}`);
  return [...new Set(errors)].slice(0, 3);
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** The distinct last lines of the app's output (it logs at `warn`), when something went wrong. */
function appWarnings(output: string, results: Conversation[]): string[] {
  if (results.every((r) => r.completed && r.reconnects === 0)) return [];
  const lines = output.split('\n').filter((line) => line.trim() !== '');
  return [...new Set(lines.slice(-200).map((line) => line.slice(0, 300)))].slice(-5);
}

function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

function machineLoad(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}

export interface BurstFigures {
  conversations: number;
  modelDelayMs: number;
  appEnv: Record<string, string>;
  completed: number;
  errors: string[];
  /** Streams the server ended before `done` (reopened by the client). */
  reconnects: number;
  /** The app's last warning lines when a stream ended early or a run failed. */
  appWarnings: string[];
  wallSeconds: number;
  runMs: Pct;
  ttftMs: Pct;
  /** How many conversations' first output was each event type. */
  firstOutputTypes: Record<string, number>;
  deliveryMs: Pct;
  peakRssMb: number;
  cpuSeconds: Record<string, number>;
  loadAverage1m: { start: number; end: number };
}

/** N users each start one conversation at the same moment (one process `APP_ROLE=all`). */
export async function burstCase(context: BenchContext, knobs: CapacityKnobs): Promise<BurstFigures> {
  const service = await startSingleService(context, oneToolCall(TOOL.name, TOOL.args, knobs.modelDelayMs), {
    role: 'all',
    extraEnv: { ...SETUP_ENV, ...knobs.appEnv },
    label: 'app (burst)',
  });
  try {
    const admin = await BenchApi.login(service.app.baseUrl);
    const users = await createUsers(admin, knobs.conversations, context);
    const threads = await inBatches(users, 20, (user) => user.newThread());
    context.progress(`capacity burst: ${users.length} conversations at once`);
    const pids = { app: service.app.pid };
    const load = machineLoad();
    const rss = sampleRss(service.app.pid);
    const cpuBefore = cpuNow(pids, service.database.name);
    const started = performance.now();
    const results = await Promise.all(
      users.map((user, i) => conversation(user, threads[i].id, ONE_TOOL_INPUT, knobs.timeoutSeconds * 1000)),
    );
    const wallSeconds = (performance.now() - started) / 1000;
    const cpuSeconds = cpuSince(cpuBefore, pids, service.database.name);
    const peakRss = rss.stop();
    const done = results.filter((r) => r.completed);
    return {
      conversations: users.length,
      modelDelayMs: knobs.modelDelayMs,
      appEnv: knobs.appEnv,
      completed: done.length,
      errors: firstErrors(results),
      reconnects: sum(results.map((r) => r.reconnects)),
      appWarnings: appWarnings(service.app.capturedOutput, results),
      wallSeconds,
      runMs: pct(done.map((r) => r.runMs)),
      ttftMs: pct(results.flatMap((r) => (r.ttftMs === null ? [] : [r.ttftMs]))),
      firstOutputTypes: countBy(results.map((r) => r.firstOutputType ?? 'none')),
      deliveryMs: pct(results.flatMap((r) => r.deliveryMs)),
      peakRssMb: peakRss / 2 ** 20,
      cpuSeconds,
      loadAverage1m: { start: load, end: machineLoad() },
    };
  } finally {
    await service.stop();
  }
}

export interface OpenLoopFigures {
  rate: number;
  seconds: number;
  users: number;
  modelDelayMs: number;
  appEnv: Record<string, string>;
  /** rate × seconds; fewer start when arrivals wait for free users past the drain deadline. */
  planned: number;
  started: number;
  completed: number;
  errors: string[];
  reconnects: number;
  appWarnings: string[];
  /** Arrivals that waited over 100 ms for a free user (every user had a conversation going). */
  lateArrivals: number;
  maxLateMs: number;
  runMs: Pct;
  ttftMs: Pct;
  windows: { fromSecond: number; started: number; completed: number; runMs: Pct }[];
  peakRssMb: number;
  cpuSeconds: Record<string, number>;
  loadAverage1m: { start: number; end: number };
}

/** `rate` new conversations per second for `seconds`, each from a free user of a pool. */
export async function openLoopCase(context: BenchContext, knobs: CapacityKnobs): Promise<OpenLoopFigures> {
  const service = await startSingleService(context, oneToolCall(TOOL.name, TOOL.args, knobs.modelDelayMs), {
    role: 'all',
    extraEnv: { ...SETUP_ENV, ...knobs.appEnv },
    label: 'app (open loop)',
  });
  try {
    const admin = await BenchApi.login(service.app.baseUrl);
    const users = await createUsers(admin, knobs.conversations, context);
    const total = Math.round(knobs.rate * knobs.seconds);
    context.progress(`capacity open loop: ${knobs.rate}/s for ${knobs.seconds} s (${total} conversations)`);
    const free = [...users];
    const waiting: ((user: BenchApi) => void)[] = [];
    const takeUser = () =>
      free.length > 0 ? Promise.resolve(free.shift()!) : new Promise<BenchApi>((r) => waiting.push(r));
    const giveBack = (user: BenchApi) => {
      const next = waiting.shift();
      if (next === undefined) free.push(user);
      else next(user);
    };
    const pids = { app: service.app.pid };
    const load = machineLoad();
    const rss = sampleRss(service.app.pid);
    const cpuBefore = cpuNow(pids, service.database.name);
    const t0 = performance.now();
    const deadline = t0 + (knobs.seconds + knobs.drainSeconds) * 1000;
    const conversations: Promise<Conversation & { offsetMs: number }>[] = [];
    let lateArrivals = 0;
    let maxLateMs = 0;
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / knobs.rate;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const user = await takeUser();
      const late = performance.now() - due;
      if (late > 100) lateArrivals++;
      maxLateMs = Math.max(maxLateMs, late);
      const offsetMs = performance.now() - t0;
      conversations.push(
        (async () => {
          try {
            const thread = await user.newThread();
            const result = await conversation(user, thread.id, ONE_TOOL_INPUT, deadline - performance.now());
            return { ...result, offsetMs };
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            return {
              completed: false,
              status: null,
              runMs: 0,
              ttftMs: null,
              firstOutputType: null,
              reconnects: 0,
              deliveryMs: [],
              error: message,
              offsetMs,
            };
          } finally {
            giveBack(user);
          }
        })(),
      );
      if (performance.now() > deadline) break;
    }
    const results = await Promise.all(conversations);
    const cpuSeconds = cpuSince(cpuBefore, pids, service.database.name);
    const peakRss = rss.stop();
    const done = results.filter((r) => r.completed);
    const windows = [];
    for (let from = 0; from < knobs.seconds; from += 10) {
      const inWindow = results.filter((r) => r.offsetMs >= from * 1000 && r.offsetMs < (from + 10) * 1000);
      const windowDone = inWindow.filter((r) => r.completed);
      windows.push({
        fromSecond: from,
        started: inWindow.length,
        completed: windowDone.length,
        runMs: pct(windowDone.map((r) => r.runMs)),
      });
    }
    return {
      rate: knobs.rate,
      seconds: knobs.seconds,
      users: users.length,
      modelDelayMs: knobs.modelDelayMs,
      appEnv: knobs.appEnv,
      planned: total,
      started: results.length,
      completed: done.length,
      errors: firstErrors(results),
      reconnects: sum(results.map((r) => r.reconnects)),
      appWarnings: appWarnings(service.app.capturedOutput, results),
      lateArrivals,
      maxLateMs,
      runMs: pct(done.map((r) => r.runMs)),
      ttftMs: pct(results.flatMap((r) => (r.ttftMs === null ? [] : [r.ttftMs]))),
      windows,
      peakRssMb: peakRss / 2 ** 20,
      cpuSeconds,
      loadAverage1m: { start: load, end: machineLoad() },
    };
  } finally {
    await service.stop();
  }
}

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

export interface SseFigures {
  streams: number;
  runs: number;
  appEnv: Record<string, string>;
  opened: number;
  openSeconds: number;
  rssBeforeMb: number;
  rssOpenMb: number;
  rssAfterMb: number;
  peakRssMb: number;
  kbPerStream: number;
  heartbeatSeconds: number;
  /** Streams whose first heartbeat came within the interval (+1 s) of their opening. */
  heartbeatOnTime: number;
  /** Streams still open at the end (no error, not ended). */
  stillOpen: number;
  errors: string[];
  loadAverage1m: { start: number; end: number };
}

/**
 * One API process (no worker, so the runs stay queued and their streams open) holding `streams` SSE
 * streams, `STREAMS_PER_RUN` per run, as one user whose stream cap is raised.
 */
export async function sseCase(context: BenchContext, knobs: CapacityKnobs): Promise<SseFigures> {
  const heartbeatSeconds = Number(knobs.appEnv.SSE_HEARTBEAT_SECONDS ?? 15);
  const service = await startSingleService(context, threeToolCalls(TOOL.name, TOOL.args), {
    role: 'api',
    extraEnv: { SSE_MAX_STREAMS_PER_USER: String(Math.min(10_000, knobs.streams + 100)), ...knobs.appEnv },
    label: 'api (sse)',
  });
  const abort = new AbortController();
  // Every stream listens for the one abort.
  setMaxListeners(0, abort.signal);
  try {
    const api = await BenchApi.login(service.app.baseUrl);
    const runCount = Math.ceil(knobs.streams / STREAMS_PER_RUN);
    const runs = await inBatches(Array.from({ length: runCount }), 10, async () =>
      api.startRun((await api.newThread()).id, THREE_TOOLS_INPUT),
    );
    await sleep(1000);
    const rssBefore = processRssBytes(service.app.pid) ?? Number.NaN;
    const load = machineLoad();
    const rss = sampleRss(service.app.pid);
    context.progress(`capacity sse: opening ${knobs.streams} streams on ${runCount} queued runs`);
    const opened: number[] = [];
    const firstHeartbeat: (number | null)[] = [];
    const errors: string[] = [];
    let ended = 0;
    const reads: Promise<void>[] = [];
    const started = performance.now();
    await inBatches(Array.from({ length: knobs.streams }), STREAM_OPEN_PARALLEL, (_, i) => {
      const run = runs[i % runCount];
      firstHeartbeat[i] = null;
      return new Promise<void>((resolve) => {
        const read = readRunEvents(
          `${api.baseUrl}${run.stream_url}`,
          api.bearer,
          knobs.timeoutSeconds * 1000,
          undefined,
          {
            signal: abort.signal,
            onOpen: (at) => {
              opened[i] = at;
              resolve();
            },
            onComment: (_text, at) => {
              firstHeartbeat[i] ??= at;
            },
          },
        ).then(
          (result) => {
            if (result.ended) ended++;
            resolve();
          },
          (error: unknown) => {
            errors.push(error instanceof Error ? error.message : String(error));
            resolve();
          },
        );
        reads.push(read);
      });
    });
    const openSeconds = (performance.now() - started) / 1000;
    const openCount = opened.filter((at) => at !== undefined).length;
    await sleep(1000);
    const rssOpen = processRssBytes(service.app.pid) ?? Number.NaN;
    const lastOpened = Math.max(...opened.filter((at) => at !== undefined));
    context.progress(`capacity sse: ${openCount} open; waiting for a heartbeat on each`);
    await sleep(Math.max(0, lastOpened + (heartbeatSeconds + 2) * 1000 - performance.now()));
    const rssAfter = processRssBytes(service.app.pid) ?? Number.NaN;
    const peakRss = rss.stop();
    const onTime = firstHeartbeat.filter(
      (at, i) => at !== null && opened[i] !== undefined && at - opened[i] <= (heartbeatSeconds + 1) * 1000,
    ).length;
    const stillOpen = openCount - ended - errors.length;
    abort.abort();
    await Promise.all(reads);
    return {
      streams: knobs.streams,
      runs: runCount,
      appEnv: knobs.appEnv,
      opened: openCount,
      openSeconds,
      rssBeforeMb: rssBefore / 2 ** 20,
      rssOpenMb: rssOpen / 2 ** 20,
      rssAfterMb: rssAfter / 2 ** 20,
      peakRssMb: peakRss / 2 ** 20,
      kbPerStream: (rssAfter - rssBefore) / 1024 / Math.max(1, openCount),
      heartbeatSeconds,
      heartbeatOnTime: onTime,
      stillOpen,
      errors: [...new Set(errors)].slice(0, 3),
      loadAverage1m: { start: load, end: machineLoad() },
    };
  } finally {
    abort.abort();
    await service.stop();
  }
}
