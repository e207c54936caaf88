import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { threeToolCalls } from '../support/fake-model-server.js';
import { processRssBytes, sampleRss } from '../support/process-cpu.js';
import { startSingleService } from '../support/split-service.js';
import { readRunEvents } from '../support/sse-reader.js';
import { type CapacityKnobs, THREE_TOOLS_INPUT, TOOL } from './knobs.js';
import { inBatches, machineLoad } from './measure.js';

/** SSE case: streams per run (so 5,000 streams are 50 parked runs of one user). */
const STREAMS_PER_RUN = 100;

const STREAM_OPEN_PARALLEL = 100;

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
