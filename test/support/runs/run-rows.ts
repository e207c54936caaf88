import type { TestContext } from '../test-app';

/** A run row as the tests read it back. */
export interface RunRow {
  id: string;
  thread_id: string;
  status: string;
  input: string;
  request_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function runRow(ctx: TestContext, runId: string): Promise<RunRow> {
  const [row] = await ctx.dataSource.query<RunRow[]>(
    `SELECT id, thread_id, status, input, request_id, created_at, started_at, finished_at
       FROM runs WHERE id = $1`,
    [runId],
  );
  if (row === undefined) throw new Error(`no run ${runId}`);
  return row;
}

/** How many rows of `table` have `column = value` (runs, messages and run_events of a thread or run). */
export async function countRows(
  ctx: TestContext,
  table: 'runs' | 'messages' | 'run_events' | 'threads',
  column: 'thread_id' | 'run_id' | 'user_id' | 'id',
  value: string,
): Promise<number> {
  const [{ count }] = await ctx.dataSource.query<[{ count: number }]>(
    `SELECT count(*)::int AS count FROM ${table} WHERE ${column} = $1`,
    [value],
  );
  return count;
}

/** The event types of a run as stored, in sequence order. */
export async function eventRows(
  ctx: TestContext,
  runId: string,
): Promise<{ seq: number; type: string; payload: Record<string, unknown> }[]> {
  return ctx.dataSource.query<{ seq: number; type: string; payload: Record<string, unknown> }[]>(
    `SELECT seq, type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
}
