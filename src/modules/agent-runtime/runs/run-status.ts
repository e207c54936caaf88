/** A run's statuses (`docs/api.md` "Runs"; the transitions are `run-state-machine.ts`). */
export const RUN_STATUSES = [
  'queued',
  'running',
  'waiting',
  'cancel_requested',
  'completed',
  'failed',
  'cancelled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const TERMINAL_STATUSES: readonly RunStatus[] = ['completed', 'failed', 'cancelled'];
/** Runs that hold their thread: a new run on the thread waits behind them (FIFO) or is refused. */
export const ACTIVE_STATUSES: readonly RunStatus[] = ['queued', 'running', 'waiting', 'cancel_requested'];

/**
 * Runs that hold or want a worker: what the per-user cap counts. A `waiting` run (for an answer, or
 * parked for its children) holds no worker and does not count.
 */
export const WORKER_BOUND_STATUSES: readonly RunStatus[] = ['queued', 'running', 'cancel_requested'];

/**
 * Runs a worker is executing: each takes one of its user's in-flight slots (`RUN_MAX_IN_FLIGHT_PER_USER`,
 * checked at the claim, `user-run-slots.ts`).
 */
export const IN_FLIGHT_STATUSES: readonly RunStatus[] = ['running', 'cancel_requested'];

export function isTerminal(status: RunStatus): boolean {
  return TERMINAL_STATUSES.includes(status);
}
