import { getHeapStatistics } from 'node:v8';

const MiB = 1024 * 1024;
/**
 * The heap a run in flight is given room for: its graph state, conversation and stream buffers take
 * about 1.5 MiB (measured: 500 runs at once with a slow model); the rest is headroom for large tool
 * results and the process itself.
 */
const HEAP_PER_RUN = 4 * MiB;
export const WORKER_CONCURRENCY_MIN = 10;
export const WORKER_CONCURRENCY_DEFAULT_MAX = 500;

/**
 * The default of `RUN_WORKER_CONCURRENCY`: a run waiting on its model or a tool waits on a socket and
 * costs memory, not CPU, so the slots follow the heap (half of it for runs): 500 on a 4 GiB heap, 64
 * on 512 MiB, never below 10.
 */
export function derivedWorkerConcurrency(heapLimitBytes = getHeapStatistics().heap_size_limit): number {
  const byHeap = Math.floor(heapLimitBytes / 2 / HEAP_PER_RUN);
  return Math.min(WORKER_CONCURRENCY_DEFAULT_MAX, Math.max(WORKER_CONCURRENCY_MIN, byHeap));
}
