import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { startRuntime } from '../../support/runs/runtime-context';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { childRuns, requestsFor, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

/**
 * Issue 14: a parent awaiting its child gives its worker slot up. With one slot, a parent that held
 * it while awaiting would wait forever for a child that can never be claimed.
 */
describe('subagents with RUN_WORKER_CONCURRENCY=1', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let scripts: SubagentScripts;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ RUN_WORKER_CONCURRENCY: '1' }));
    scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
  });

  afterAll(() => close());

  const delegating = (name: string) =>
    parentTurns([
      () => ({ toolCalls: [startCall(`start_${name}`, `child of ${name}`)] }),
      (results) => ({
        toolCalls: [
          call(`await_${name}`, 'subagent_await', { run_id: results.get(`start_${name}`)!.run_id }),
        ],
      }),
      () => ({ text: `${name} done` }),
    ]);

  it('completes a parent that awaits its child, and two such parents side by side', async () => {
    for (const name of ['p1', 'p2', 'p3']) {
      scripts.on(`child of ${name}`, () => ({ text: `output of ${name}` })).on(name, delegating(name));
    }
    const single = await startRun(ctx, user, await newThread(ctx, user), { input: 'p1' });
    expect(await waitForStatus(ctx, single.run_id, isTerminal)).toBe('completed');
    const pair = await Promise.all(
      ['p2', 'p3'].map(async (name) => startRun(ctx, user, await newThread(ctx, user), { input: name })),
    );
    for (const run of pair) expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    for (const [name, run] of [
      ['p1', single],
      ['p2', pair[0]],
      ['p3', pair[1]],
    ] as const) {
      const [child] = await childRuns(ctx, run.run_id);
      expect(child.status).toBe('completed');
      const last = requestsFor(fake, name).at(-1)!;
      expect(JSON.parse(String(toolAnswer(last.body.messages, `await_${name}`)!.content))).toEqual({
        run_id: child.id,
        status: 'completed',
        output: `output of ${name}`,
      });
    }
  });
});
