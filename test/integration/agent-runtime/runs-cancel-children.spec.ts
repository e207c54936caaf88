import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';

/** A subagent run is a run with `parent_run_id` (roadmap 1): it never outlives a cancelled parent. */
describe('cancelling a parent run cancels its active child runs', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it('stops a running child and a queued grandchild; a finished child is left as it was', async () => {
    const parentHold = fake.holdNext();
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'parent' });
    await parentHold.arrived;
    const childHold = fake.holdNext();
    const child = await startRun(ctx, user, await newThread(ctx, user), { input: 'child' });
    await childHold.arrived;
    const childThread = await newThread(ctx, user);
    // The grandchild waits behind a held run of its thread, so it stays queued.
    const blockerHold = fake.holdNext();
    const blocker = await startRun(ctx, user, childThread, { input: 'blocker' });
    await blockerHold.arrived;
    const grandchild = await startRun(ctx, user, childThread, { input: 'grandchild' });
    fake.script({ text: 'done' });
    const finished = await startRun(ctx, user, await newThread(ctx, user), { input: 'finished child' });
    expect(await waitForStatus(ctx, finished.run_id, isTerminal)).toBe('completed');
    await ctx.dataSource.query(`UPDATE runs SET parent_run_id = $1 WHERE id = ANY($2)`, [
      parent.run_id,
      [child.run_id, finished.run_id],
    ]);
    await ctx.dataSource.query(`UPDATE runs SET parent_run_id = $1 WHERE id = $2`, [
      child.run_id,
      grandchild.run_id,
    ]);

    const res = await ctx.http.post(`/api/runs/${parent.run_id}/cancel`).set(auth(user));
    expect(res.status).toBe(200);
    expect(await waitForStatus(ctx, grandchild.run_id, isTerminal)).toBe('cancelled');
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('cancelled');
    expect(await waitForStatus(ctx, child.run_id, isTerminal)).toBe('cancelled');
    const [row] = await ctx.dataSource.query<{ status: string }[]>(`SELECT status FROM runs WHERE id = $1`, [
      finished.run_id,
    ]);
    expect(row.status).toBe('completed');

    // The unrelated run on the grandchild's thread goes on.
    fake.script({ text: 'blocker done' });
    blockerHold.release();
    parentHold.release();
    childHold.release();
    expect(await waitForStatus(ctx, blocker.run_id, isTerminal)).toBe('completed');
  });
});
