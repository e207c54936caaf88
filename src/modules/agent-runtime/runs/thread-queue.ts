import { ACTIVE_STATUSES } from './run-status.js';

/**
 * One active run per thread: a thread's active runs form a queue ordered by (created_at, id), and only
 * its head runs. This file is the one definition of that rule; the claim, the head the dispatcher and
 * the reconciler enqueue, a run's queue position and run creation all use it.
 */

/** The statuses that hold a thread (`ACTIVE_STATUSES`), as an SQL list. */
export const ACTIVE_LIST = `('${ACTIVE_STATUSES.join("','")}')`;

/** `o` is an active run of `r`'s thread ahead of `r` in the thread's queue. */
export const O_AHEAD_OF_R = `o.thread_id = r.thread_id AND o.id <> r.id AND o.status IN ${ACTIVE_LIST}
  AND (o.created_at, o.id) < (r.created_at, r.id)`;

/** `r` is queued and no active run is ahead of it: it holds its thread and may be claimed. */
export const R_IS_QUEUED_HEAD = `r.status = 'queued' AND NOT EXISTS (SELECT 1 FROM runs o WHERE ${O_AHEAD_OF_R})`;

/** The thread queue's order, for TypeORM reads of a thread's active runs. */
export const THREAD_QUEUE_ORDER = { createdAt: 'ASC', id: 'ASC' } as const;
