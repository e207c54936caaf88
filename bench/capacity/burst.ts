import { performance } from 'node:perf_hooks';
import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { oneToolCall } from '../support/fake-model-server.js';
import { sampleRss } from '../support/process-cpu.js';
import { startSingleService } from '../support/split-service.js';
import { appWarnings, conversation, firstErrors } from './conversation.js';
import { type CapacityKnobs, ONE_TOOL_INPUT, TOOL, SETUP_ENV } from './knobs.js';
import {
  countBy,
  cpuNow,
  cpuSince,
  createUsers,
  inBatches,
  machineLoad,
  type Pct,
  pct,
  sum,
} from './measure.js';

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
