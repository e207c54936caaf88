import { Worker } from 'node:worker_threads';

export interface BoundedWorkerJob {
  /** The worker's code, plain JavaScript (`eval`), so it runs the same from `dist/` and under Jest. */
  source: string;
  workerData: unknown;
  budgetMs: number;
  /** The error a call that outlives its budget rejects with. */
  onTimeout: () => Error;
}

/**
 * Runs synchronous, possibly super-linear work (a user's regular expression, a glob compiled to one) in
 * a worker thread with a hard time budget: a catastrophic match cannot be interrupted inside the event
 * loop, but a worker can be terminated. The worker posts one message, its answer.
 */
export function runBoundedWorker<T>(
  job: BoundedWorkerJob,
  signal: AbortSignal = new AbortController().signal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const worker = new Worker(job.source, {
      eval: true,
      workerData: job.workerData,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      void worker.terminate();
      outcome();
    };
    const onAbort = () =>
      finish(() => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')));
    const timer = setTimeout(() => finish(() => reject(job.onTimeout())), job.budgetMs);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (answer: T) => finish(() => resolve(answer)));
    worker.once('error', (error) => finish(() => reject(error)));
    worker.once('exit', (code) => finish(() => reject(new Error(`bounded worker exited with code ${code}`))));
  });
}
