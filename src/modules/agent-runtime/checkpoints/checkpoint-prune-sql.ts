import { ACTIVE_LIST } from '../runs/thread-queue.js';

/** LangGraph's tables live in their own schema (`graph/checkpointer.ts`). */
export const CHECKPOINT_SCHEMA = 'langgraph';

const S = CHECKPOINT_SCHEMA;

/** Whether the checkpointer has created its tables yet (before the first run it has not). */
export const TABLES_EXIST_SQL = `SELECT to_regclass('${S}.checkpoints') IS NOT NULL AS ok`;

/** The next threads (after `$1`, in id order, at most `$2`) holding more than their latest checkpoint. */
export const CANDIDATES_SQL = `SELECT thread_id FROM ${S}.checkpoints
  WHERE thread_id > $1 GROUP BY thread_id HAVING count(*) > 1 ORDER BY thread_id LIMIT $2`;

/**
 * The thread's active runs, locked: a `waiting` run stays waiting until the prune commits (an answer,
 * a wake-up or a cancel updates the row, so it waits for this lock), and a queued or running run makes
 * the prune skip the thread. The lease itself is never taken.
 */
export const LOCK_ACTIVE_RUNS_SQL = `SELECT status FROM runs
  WHERE thread_id = $1::uuid AND status IN ${ACTIVE_LIST} FOR SHARE`;

/**
 * Deletes, per namespace of thread `$1`, what its latest checkpoint does not need: older checkpoints,
 * the pending writes of older checkpoints, and channel values of a version below the one the latest
 * checkpoint holds. Everything kept is what `getTuple` reads (the latest checkpoint, its blobs, its
 * pending writes: an interrupt and the answers to it). A run writing the thread meanwhile only adds
 * newer checkpoints, writes and versions, none of which these conditions match.
 */
export const PRUNE_THREAD_SQL = `WITH latest AS (
    SELECT DISTINCT ON (checkpoint_ns) checkpoint_ns, checkpoint_id, checkpoint -> 'channel_versions' AS versions
      FROM ${S}.checkpoints WHERE thread_id = $1 ORDER BY checkpoint_ns, checkpoint_id DESC
  ), checkpoints AS (
    DELETE FROM ${S}.checkpoints c USING latest l
     WHERE c.thread_id = $1 AND c.checkpoint_ns = l.checkpoint_ns AND c.checkpoint_id < l.checkpoint_id
    RETURNING 1
  ), writes AS (
    DELETE FROM ${S}.checkpoint_writes w USING latest l
     WHERE w.thread_id = $1 AND w.checkpoint_ns = l.checkpoint_ns AND w.checkpoint_id < l.checkpoint_id
    RETURNING 1
  ), blobs AS (
    DELETE FROM ${S}.checkpoint_blobs b USING latest l, jsonb_each_text(l.versions) v
     WHERE b.thread_id = $1 AND b.checkpoint_ns = l.checkpoint_ns AND b.channel = v.key
       AND b.version ~ '^[0-9]+$' AND v.value ~ '^[0-9]+$' AND b.version::numeric < v.value::numeric
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM checkpoints)::int AS checkpoints, (SELECT count(*) FROM writes)::int AS writes,
         (SELECT count(*) FROM blobs)::int AS blobs`;
