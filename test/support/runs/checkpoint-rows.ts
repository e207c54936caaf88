import type { TestContext } from '../test-app';

export interface CheckpointRows {
  checkpoints: number;
  writes: number;
  blobs: number;
  /** Blobs the latest checkpoint does not reference (a channel value of an older version). */
  staleBlobs: number;
  /** Writes of a checkpoint other than the latest. */
  staleWrites: number;
}

/** The thread's rows in LangGraph's tables, read back, and how many of them its latest checkpoint needs. */
export async function checkpointRows(ctx: TestContext, threadId: string): Promise<CheckpointRows> {
  const [row] = await ctx.dataSource.query<CheckpointRows[]>(
    `WITH latest AS (
       SELECT checkpoint_id, checkpoint -> 'channel_versions' AS versions FROM langgraph.checkpoints
        WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id DESC LIMIT 1)
     SELECT (SELECT count(*)::int FROM langgraph.checkpoints WHERE thread_id = $1) AS checkpoints,
            (SELECT count(*)::int FROM langgraph.checkpoint_writes WHERE thread_id = $1) AS writes,
            (SELECT count(*)::int FROM langgraph.checkpoint_blobs WHERE thread_id = $1) AS blobs,
            (SELECT count(*)::int FROM langgraph.checkpoint_blobs b, latest l
              WHERE b.thread_id = $1 AND (l.versions ->> b.channel) IS DISTINCT FROM b.version) AS "staleBlobs",
            (SELECT count(*)::int FROM langgraph.checkpoint_writes w, latest l
              WHERE w.thread_id = $1 AND w.checkpoint_id <> l.checkpoint_id) AS "staleWrites"`,
    [threadId],
  );
  return row;
}
