import { Checkpointer } from '../../../src/modules/agent-runtime/graph/checkpointer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

describe('checkpoints of deleted threads are purged', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  const checkpointRows = async (threadId: string) => {
    const [row] = await ctx.dataSource.query<{ checkpoints: number; blobs: number; writes: number }[]>(
      `SELECT (SELECT count(*)::int FROM langgraph.checkpoints WHERE thread_id = $1) AS checkpoints,
              (SELECT count(*)::int FROM langgraph.checkpoint_blobs WHERE thread_id = $1) AS blobs,
              (SELECT count(*)::int FROM langgraph.checkpoint_writes WHERE thread_id = $1) AS writes`,
      [threadId],
    );
    return row;
  };

  it('removes the checkpoints of a deleted thread and keeps those of live threads', async () => {
    const [kept, deleted] = [await newThread(ctx, user), await newThread(ctx, user)];
    for (const threadId of [kept, deleted]) {
      fake.script({ text: 'hi' });
      const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'hello' });
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    }
    expect((await checkpointRows(deleted)).checkpoints).toBeGreaterThan(0);
    await ctx.http.delete(`/api/threads/${deleted}`).set(auth(user)).expect(204);

    expect(await ctx.app.get(Checkpointer).purgeDeletedThreads()).toBe(1);
    expect(await checkpointRows(deleted)).toEqual({ checkpoints: 0, blobs: 0, writes: 0 });
    expect((await checkpointRows(kept)).checkpoints).toBeGreaterThan(0);
    expect(await ctx.app.get(Checkpointer).purgeDeletedThreads()).toBe(0);
  });

  it('looks through more checkpointed threads than one page, keeping the live ones among them', async () => {
    const kept = await newThread(ctx, user);
    fake.script({ text: 'hi' });
    const { run_id: runId } = await startRun(ctx, user, kept, { input: 'hello' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    // Checkpoints of 1,200 threads that do not exist, their ids sorted among the live ones.
    await ctx.dataSource.query(
      `INSERT INTO langgraph.checkpoints (thread_id, checkpoint_ns, checkpoint_id, checkpoint)
       SELECT gen_random_uuid()::text, '', 'c-1', '{}'::jsonb FROM generate_series(1, 1200)`,
    );

    expect(await ctx.app.get(Checkpointer).purgeDeletedThreads()).toBe(1200);
    const [left] = await ctx.dataSource.query<{ orphans: number }[]>(
      `SELECT count(*)::int AS orphans FROM langgraph.checkpoints c
        WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.id::text = c.thread_id)`,
    );
    expect(left.orphans).toBe(0);
    expect((await checkpointRows(kept)).checkpoints).toBeGreaterThan(0);
  });
});
