import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';

export const LOAD_CONNECTIONS = 50;
export const LOAD_SECONDS = 10;
export const WARMUP_SECONDS = 2;

export interface LoadFigures {
  /** Mean requests per second over the measured run. */
  requestsPerSecond: number;
  totalRequests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  non2xx: number;
  errors: number;
  timeouts: number;
}

async function cannon(
  url: string,
  headers: Record<string, string>,
  seconds: number,
): Promise<autocannon.Result> {
  return autocannon({ url, headers, connections: LOAD_CONNECTIONS, duration: seconds, method: 'GET' });
}

function assertClean(label: string, phase: string, result: autocannon.Result): void {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    const codes = JSON.stringify(result.statusCodeStats ?? {});
    throw new Error(
      `${label} (${phase}): ${result.non2xx} non-2xx responses, ${result.errors} errors, ${result.timeouts} timeouts ` +
        `out of ${result.requests.total} requests; status codes ${codes}`,
    );
  }
}

/**
 * A 2 s warm-up run (not counted), then 10 s with 50 connections. Any non-2xx response, connection error
 * or timeout in either run fails the bench.
 */
export async function measureLoad(
  label: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<LoadFigures> {
  assertClean(label, 'warm-up', await cannon(url, headers, WARMUP_SECONDS));
  const result = await cannon(url, headers, LOAD_SECONDS);
  assertClean(label, 'measured run', result);
  return {
    requestsPerSecond: result.requests.average,
    totalRequests: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

/** Runs `total` jobs with `clients` loops in parallel; returns each job's result and the wall time. */
export async function closedLoop<T>(total: number, clients: number, job: (i: number) => Promise<T>) {
  const results: T[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < total) results.push(await job(next++));
    }),
  );
  return { results, wallMs: performance.now() - started };
}
