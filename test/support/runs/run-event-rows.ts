import type { TestContext } from '../test-app';

export interface StoredEvent {
  seq: number;
  type: string;
  payload: Record<string, any>;
}

/** A run's rows in `run_events`, in sequence order. */
export function storedEvents(ctx: TestContext, runId: string): Promise<StoredEvent[]> {
  return ctx.dataSource.query<StoredEvent[]>(
    `SELECT seq, type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
    [runId],
  );
}

/** The run row's status and error, read straight from the table. */
export async function runRow(
  ctx: TestContext,
  runId: string,
): Promise<{ status: string; error: { code: string; message: string } | null; attempts: number }> {
  const [row] = await ctx.dataSource.query<
    { status: string; error: { code: string; message: string } | null; attempts: number }[]
  >(`SELECT status, error, attempts FROM runs WHERE id = $1`, [runId]);
  if (row === undefined) throw new Error(`no run ${runId}`);
  return row;
}

/** Polls `read` until `ready` accepts its value, or throws after `timeoutMs`. */
export async function eventually<T>(
  read: () => Promise<T>,
  ready: (value: T) => boolean,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (ready(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
