import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { BenchApi } from '../support/bench-api.js';
import type { BenchContext } from '../support/bench-context.js';
import { randomSuffix } from '../support/bench-env.js';
import { closedLoop } from '../support/load.js';
import { commandCpuSeconds, processCpuSeconds } from '../support/process-cpu.js';
import { percentile } from '../support/stats.js';

/** What the capacity cases measure with: percentiles, CPU of the processes involved, users, batches. */
export interface Pct {
  n: number;
  p50: number;
  p99: number;
}

export function pct(samples: number[]): Pct {
  return samples.length === 0
    ? { n: 0, p50: Number.NaN, p99: Number.NaN }
    : { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99) };
}

/**
 * CPU seconds so far of the named app processes, of PostgreSQL (the backends of `database` and the
 * shared background processes: other databases' backends are left out, as are backends that exit
 * during the case) and of every `redis-server` (shared with anything else using that Redis).
 */
export function cpuNow(pids: Record<string, number>, database: string): Record<string, number> {
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

export function cpuSince(
  before: Record<string, number>,
  pids: Record<string, number>,
  database: string,
): Record<string, number> {
  const after = cpuNow(pids, database);
  return Object.fromEntries(Object.entries(after).map(([name, value]) => [name, value - before[name]]));
}

/** Runs `job` on every item, at most `parallel` at once, in order of the items. */
export async function inBatches<T, R>(items: T[], parallel: number, job: (item: T, i: number) => Promise<R>) {
  const { results } = await closedLoop(items.length, parallel, async (i) => ({
    i,
    r: await job(items[i], i),
  }));
  return results.sort((a, b) => a.i - b.i).map(({ r }) => r);
}

/** `count` users made through `POST /api/users` by the admin, each logged in. */
export async function createUsers(
  admin: BenchApi,
  count: number,
  context: BenchContext,
): Promise<BenchApi[]> {
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

export function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

export function countBy(values: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
  return counts;
}

export function machineLoad(): number {
  return Math.round(loadavg()[0] * 100) / 100;
}
