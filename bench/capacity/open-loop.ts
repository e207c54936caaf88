import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { oneToolCall } from '../support/fake-model-server.js';
import { sampleRss } from '../support/process-cpu.js';
import { startSingleService } from '../support/split-service.js';
import { appWarnings, conversation, type Conversation, firstErrors } from './conversation.js';
import { type CapacityKnobs, ONE_TOOL_INPUT, TOOL, SETUP_ENV } from './knobs.js';
import { cpuNow, cpuSince, createUsers, machineLoad, type Pct, pct, sum } from './measure.js';

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
  /** Arrivals that waited over 100 ms for a free user (every user had CONVERSATIONS_PER_USER going). */
  lateArrivals: number;
  maxLateMs: number;
  runMs: Pct;
  ttftMs: Pct;
  windows: { fromSecond: number; started: number; completed: number; runMs: Pct }[];
  peakRssMb: number;
  cpuSeconds: Record<string, number>;
  loadAverage1m: { start: number; end: number };
}

/** Conversations one user of the pool may have going at once (each on its own thread). */
const CONVERSATIONS_PER_USER = 5;

/** `rate` new conversations per second for `seconds`, from a pool of users, in turn. */
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
    // Each user may have CONVERSATIONS_PER_USER going (far below every per-user cap), so arrivals do not
    // wait for the service: a pool of 500 takes 40/s even when each conversation lasts 60 s.
    const free = users.flatMap((user) => Array.from({ length: CONVERSATIONS_PER_USER }, () => user));
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
