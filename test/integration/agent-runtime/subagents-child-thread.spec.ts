import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { childRuns, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

/** Issue 25 item 3: a subagent's child thread runs only through its parent. */
describe('subagents: child threads refuse direct runs', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let parentThread: string;
  let childThread: string;

  const runsIn = async (threadId: string) =>
    (
      await ctx.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM runs WHERE thread_id = $1`,
        [threadId],
      )
    )[0].n;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    const scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
    scripts
      .on('child task', () => ({ text: 'child done' }))
      .on(
        'delegate once',
        parentTurns([() => ({ toolCalls: [startCall('s', 'child task')] }), () => ({ text: 'ok' })]),
      );
    parentThread = await newThread(ctx, user);
    const parent = await startRun(ctx, user, parentThread, { input: 'delegate once' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [child] = await childRuns(ctx, parent.run_id);
    expect(await waitForStatus(ctx, child.id, isTerminal)).not.toBe('failed');
    childThread = child.thread_id;
    fake.script({ text: 'a direct answer' });
  });
  afterAll(() => close());

  it('answers 409 runs.child_thread to POST /api/threads/:child/runs and creates no run', async () => {
    const before = await runsIn(childThread);
    const res = await ctx.http
      .post(`/api/threads/${childThread}/runs`)
      .set(auth(user))
      .send({ input: 'run without a parent' });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'runs.child_thread', details: { thread_id: childThread } });
    expect(await runsIn(childThread)).toBe(before);
  });

  it('answers 409 runs.child_thread to POST /api/agent-calls naming a child thread', async () => {
    const before = await runsIn(childThread);
    const res = await ctx.http
      .post('/api/agent-calls')
      .set(auth(user))
      .send({ agent_slug: 'general-purpose', input: 'run without a parent', thread_id: childThread });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('runs.child_thread');
    expect(await runsIn(childThread)).toBe(before);
  });

  it('still runs the parent conversation itself', async () => {
    const run = await startRun(ctx, user, parentThread, { input: 'plain follow-up' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
  });
});
