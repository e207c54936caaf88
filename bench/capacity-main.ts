import {
  burstCase,
  CAPACITY_CASES,
  capacityKnobs,
  cpuCase,
  openLoopCase,
  sequentialCase,
  sseCase,
  type BurstFigures,
  type CapacityCase,
  type CpuFigures,
  type OpenLoopFigures,
  type Pct,
  type SequentialCapacityFigures,
  type SseFigures,
} from './capacity/index.js';
import { runBenchMain } from './support/bench-main.js';

const ms = (value: number) => (Number.isNaN(value) ? 'n/a' : `${Math.round(value)} ms`);
const s = (value: number) => (Number.isNaN(value) ? 'n/a' : `${(value / 1000).toFixed(2)} s`);
const ok = (pass: boolean) => (pass ? 'ok' : 'MISSED');
const pctLine = (label: string, p: Pct, unit: (v: number) => string, target: string, pass: boolean) =>
  `  ${label.padEnd(22)} p50 ${unit(p.p50).padStart(9)}  p99 ${unit(p.p99).padStart(9)}  (n ${p.n})   target ${target}  ${ok(pass)}`;
const envLabel = (env: Record<string, string>) =>
  Object.keys(env).length === 0 ? 'default configuration' : JSON.stringify(env);
const cpuLine = (cpu: Record<string, number>) =>
  `  CPU seconds            ${Object.entries(cpu)
    .map(([name, seconds]) => `${name} ${seconds.toFixed(1)}`)
    .join(', ')}`;
const loadLine = (load: { start: number; end: number }) =>
  `  load average (1 min)   ${load.start} at start, ${load.end} at end (2 cores)`;
const setupNote =
  '  (users made before the clock with PASSWORD_HASH_LOG_N=14: password hashing only; no rate limit refused the load)';

function reconnectLines(f: { reconnects: number; appWarnings: string[] }): string[] {
  return [
    `  streams ended early    ${f.reconnects} (ended by the server before \`done\`; reopened after the last seq)`,
    ...f.appWarnings.map((line) => `    app: ${line}`),
  ];
}

/** Time to first output: the target is the model's own delay + 1 s. */
const ttftLine = (f: { ttftMs: Pct; modelDelayMs: number }) =>
  pctLine(
    'time to first output',
    f.ttftMs,
    s,
    `p99 ≤ ${s(f.modelDelayMs + 1000)}`,
    f.ttftMs.p99 <= f.modelDelayMs + 1000,
  );

function burstLines(f: BurstFigures): string[] {
  return [
    `Capacity, burst: ${f.conversations} users start one conversation each at once, one process APP_ROLE=all, ` +
      `${envLabel(f.appEnv)}; model ${f.modelDelayMs} ms per call, 1 write_file step (2 calls, ideal ${s(2 * f.modelDelayMs)})`,
    setupNote,
    `  completed              ${f.completed}/${f.conversations} in ${f.wallSeconds.toFixed(1)} s   ${ok(f.completed === f.conversations)}` +
      (f.errors.length > 0 ? `   first failures: ${f.errors.join(' | ')}` : ''),
    ...reconnectLines(f),
    pctLine('run POST → done', f.runMs, s, 'p99 ≤ 8 s', f.runMs.p99 <= 8000),
    ttftLine(f),
    `    (first output event: ${Object.entries(f.firstOutputTypes)
      .map(([type, count]) => `${type} ×${count}`)
      .join(', ')})`,
    pctLine('event delivery', f.deliveryMs, ms, 'p99 < 250 ms', f.deliveryMs.p99 < 250),
    `  peak RSS of the app    ${f.peakRssMb.toFixed(0)} MB   target ≤ 1536 MB  ${ok(f.peakRssMb <= 1536)}`,
    cpuLine(f.cpuSeconds),
    loadLine(f.loadAverage1m),
  ];
}

function openLoopLines(f: OpenLoopFigures): string[] {
  return [
    `Capacity, open loop: ${f.rate} new conversations/s for ${f.seconds} s from ${f.users} users (up to 5 at a time each), ` +
      `one process APP_ROLE=all, ${envLabel(f.appEnv)}; model ${f.modelDelayMs} ms per call, 1 write_file step`,
    setupNote,
    `  completed              ${f.completed}/${f.started} started (${f.planned} planned)   ` +
      `${ok(f.completed === f.planned)}` +
      (f.errors.length > 0 ? `   first failures: ${f.errors.join(' | ')}` : ''),
    `  late arrivals          ${f.lateArrivals} waited > 100 ms for a free user (max ${s(f.maxLateMs)})`,
    ...reconnectLines(f),
    pctLine('run POST → done', f.runMs, s, 'p99 ≤ 6 s', f.runMs.p99 <= 6000),
    ttftLine(f),
    ...f.windows.map(
      (w) =>
        `    started ${String(w.fromSecond).padStart(3)}-${String(w.fromSecond + 10).padEnd(3)} s: ` +
        `${w.completed}/${w.started} completed, p50 ${s(w.runMs.p50)}, p99 ${s(w.runMs.p99)}`,
    ),
    `  peak RSS of the app    ${f.peakRssMb.toFixed(0)} MB`,
    cpuLine(f.cpuSeconds),
    loadLine(f.loadAverage1m),
  ];
}

function cpuLines(f: CpuFigures): string[] {
  const m = f.msPerRun;
  return [
    `Capacity, CPU per run: API + worker processes, ${envLabel(f.appEnv)}; instant model, 3 × write_file, ` +
      `${f.runs} runs by ${f.clients} clients (closed loop, after warm-up)`,
    `  run POST → done        p50 ${ms(f.runMs.p50)}, p99 ${ms(f.runMs.p99)}, ${f.runsPerSecond.toFixed(1)} runs/s`,
    `  CPU ms per run         API ${m.api.toFixed(1)}, worker ${m.worker.toFixed(1)}, postgres ${m.postgres.toFixed(1)}, ` +
      `redis ${m.redis.toFixed(1)}; sum ${m.sum.toFixed(1)}   target ≤ 25  ${ok(m.sum <= 25)}`,
    loadLine(f.loadAverage1m),
  ];
}

function sequentialCapacityLines(f: SequentialCapacityFigures): string[] {
  return [
    `Capacity, sequential: one process APP_ROLE=all, ${envLabel(f.appEnv)}; instant model, one client, ` +
      `${f.runs} runs per case after warm-up`,
    `  3 × write_file p50     ${f.threeToolP50Ms.toFixed(1)} ms`,
    `  no tool call           p50 ${f.noToolP50Ms.toFixed(1)} ms, p99 ${f.noToolP99Ms.toFixed(1)} ms   ` +
      `target p50 ≤ 25 ms  ${ok(f.noToolP50Ms <= 25)}`,
    `  platform per tool step ${f.platformMsPerToolStep.toFixed(1)} ms   target ≤ 8 ms  ${ok(f.platformMsPerToolStep <= 8)}`,
    `  CPU ms per run         3-tool ${f.cpuMsPerRun.threeTools.toFixed(1)}, no-tool ${f.cpuMsPerRun.noTools.toFixed(1)}`,
    loadLine(f.loadAverage1m),
  ];
}

function sseLines(f: SseFigures): string[] {
  return [
    `Capacity, SSE: one API process (no worker, the runs stay queued), ${envLabel(f.appEnv)}; ` +
      `${f.streams} streams on ${f.runs} runs, one user (SSE_MAX_STREAMS_PER_USER raised)`,
    `  opened                 ${f.opened}/${f.streams} in ${f.openSeconds.toFixed(1)} s; still open at the end ${f.stillOpen}` +
      (f.errors.length > 0 ? `   errors: ${f.errors.join(' | ')}` : ''),
    `  RSS                    ${f.rssBeforeMb.toFixed(0)} MB before, ${f.rssOpenMb.toFixed(0)} MB once open, ` +
      `${f.rssAfterMb.toFixed(0)} MB after a heartbeat round (peak ${f.peakRssMb.toFixed(0)} MB)`,
    `  per stream             ${f.kbPerStream.toFixed(1)} KB`,
    `  heartbeats             ${f.heartbeatOnTime}/${f.opened} streams had one within ${f.heartbeatSeconds} s (+1 s)   ` +
      `${ok(f.heartbeatOnTime === f.opened && f.opened === f.streams)}`,
    loadLine(f.loadAverage1m),
  ];
}

/** `npm run bench:capacity [burst open-loop cpu sequential sse]`: the service under many conversations. */
runBenchMain(
  async (context) => {
    const requested = process.argv.slice(2);
    for (const name of requested)
      if (!(CAPACITY_CASES as readonly string[]).includes(name))
        throw new Error(`unknown case ${name}; cases: ${CAPACITY_CASES.join(' ')}`);
    const cases = (requested.length === 0 ? CAPACITY_CASES : requested) as readonly CapacityCase[];
    const knobs = capacityKnobs();
    const lines: string[] = [];
    const figures: Record<string, unknown> = {};
    const print = (more: string[]) => {
      lines.push(...more, '');
      // Each case's lines as soon as it is done: a long run shows its figures before it ends.
      process.stderr.write(`${more.join('\n')}\n`);
    };
    for (const name of cases) {
      context.progress(`capacity: case ${name}`);
      if (name === 'burst') print(burstLines((figures.burst = await burstCase(context, knobs))));
      if (name === 'open-loop') print(openLoopLines((figures.openLoop = await openLoopCase(context, knobs))));
      if (name === 'cpu') print(cpuLines((figures.cpu = await cpuCase(context, knobs))));
      if (name === 'sequential')
        print(sequentialCapacityLines((figures.sequential = await sequentialCase(context, knobs))));
      if (name === 'sse') print(sseLines((figures.sse = await sseCase(context, knobs))));
    }
    return `${lines.join('\n')}\n${JSON.stringify({ capacity: figures })}`;
  },
  { usesRedis: true },
);
