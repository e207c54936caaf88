import { RunTransitions, WaitingPoints } from '../../../src/modules/agent-runtime/index';
import { decide, runUntilSettled, waitingPoint } from '../../support/approval/approval-runs';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { isTerminal, newThread, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

/** What `npm run waiting-points -- list | cancel` does (src/cli/waiting-points.ts), on approval points. */
describe('waiting-points maintenance on runs waiting for approval', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  async function waitingRun(): Promise<{ runId: string; threadId: string }> {
    const { slug } = await ctx.newAgent(user, {
      config: {
        tools: ['write_file'],
        approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] },
      },
    });
    const threadId = await newThread(ctx, user, slug);
    fake.script(
      { toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'a.md', content: 'a' } }] },
      { text: 'Done.' },
    );
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('waiting');
    return { runId, threadId };
  }

  it('list shows an approval point with its counts; cancel ends the run and cancels the point', async () => {
    const { runId, threadId } = await waitingRun();
    const point = (await waitingPoint(ctx, user, runId)).body as { id: string };

    const open = await ctx.app.get(WaitingPoints).listOpen();
    expect(open.filter((row) => row.run_id === runId)).toEqual([
      {
        waiting_point_id: point.id,
        run_id: runId,
        thread_id: threadId,
        user_id: user.id,
        kind: 'approval',
        questions: 0,
        approvals: 1,
        created_at: expect.any(Date),
      },
    ]);

    expect(await ctx.app.get(RunTransitions).cancel(runId)).toBe('cancelled');
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('cancelled');
    expect((await waitingPoint(ctx, user, runId)).body.status).toBe('cancelled');
    const after = await ctx.app.get(WaitingPoints).listOpen();
    expect(after.filter((row) => row.run_id === runId)).toEqual([]);
    const late = await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect([late.status, late.body.code]).toEqual([409, 'runs.not_waiting']);
  });
});
