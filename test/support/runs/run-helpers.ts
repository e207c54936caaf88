import type { TestContext, TestUser } from '../test-app';

export const auth = (user: TestUser) => ({ authorization: `Bearer ${user.token}` });

/** `ctx.newThread`, kept under this name for the many run specs that import it. */
export const newThread = (ctx: TestContext, user: TestUser, agentSlug?: string): Promise<string> =>
  ctx.newThread(user, agentSlug);

export async function startRun(
  ctx: TestContext,
  user: TestUser,
  threadId: string,
  body: Record<string, unknown>,
): Promise<{ run_id: string; status: string; queue_position: number; stream_url: string }> {
  const res = await ctx.http.post(`/api/threads/${threadId}/runs`).set(auth(user)).send(body);
  if (res.status !== 202) throw new Error(`run not accepted: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { run_id: string; status: string; queue_position: number; stream_url: string };
}

/** Reads the run row until `done(status)` or the deadline. */
export async function waitForStatus(
  ctx: TestContext,
  runId: string,
  done: (status: string) => boolean,
  timeoutMs = 20_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await ctx.dataSource.query<
      {
        status: string;
      }[]
    >(`SELECT status FROM runs WHERE id = $1`, [runId]);
    if (row !== undefined && done(row.status)) return row.status;
    if (Date.now() > deadline) throw new Error(`run ${runId} still ${row?.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const isTerminal = (status: string) => ['completed', 'failed', 'cancelled'].includes(status);
