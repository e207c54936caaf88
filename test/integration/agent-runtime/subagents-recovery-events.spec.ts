import { SubagentRuns } from '../../../src/modules/agent-runtime/subagents/subagent-runs';
import { RunReconciler } from '../../../src/modules/agent-runtime/worker/run-reconciler';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { CallHold } from '../../support/runs/call-hold';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { childRuns, eventsOf, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

/** Issue 25 item 4: a `subagent_start` executed again by a recovered run announces its child once. */
describe('subagents: start events under recovery', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let scripts: SubagentScripts;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
  });
  afterAll(() => close());

  it('emits one started and one ended event for a child whose start the recovered parent executed again', async () => {
    scripts
      .on('recovered child task', () => ({ text: 'child done' }))
      .on(
        'recovered parent',
        parentTurns([
          () => ({ toolCalls: [startCall('s1', 'recovered child task')] }),
          (r) => ({ toolCalls: [call('a1', 'subagent_await', { run_id: r.get('s1')!.run_id })] }),
          () => ({ text: 'all done' }),
        ]),
      );
    const subagents = ctx.app.get(SubagentRuns, { strict: false });
    const start = subagents.start.bind(subagents);
    const hold = new CallHold();
    const spy = jest.spyOn(subagents, 'start').mockImplementationOnce(async (...args) => {
      const result = await start(...args);
      await hold.wait();
      return result;
    });

    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'recovered parent' });
    await hold.entered;
    // The child exists; the worker is lost before the step's checkpoint (its lease lapsed under it).
    await ctx.dataSource.query(
      `UPDATE runs SET lease_token = gen_random_uuid(), lease_expires_at = now() - interval '1 second' WHERE id = $1`,
      [parent.run_id],
    );
    hold.release();
    await ctx.app.get(RunReconciler, { strict: false }).reconcile();
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');

    expect(spy).toHaveBeenCalledTimes(2); // the recovered step ran subagent_start again
    const [attempts] = await ctx.dataSource.query<{ attempts: number }[]>(
      `SELECT attempts FROM runs WHERE id = $1`,
      [parent.run_id],
    );
    const parentEvents = await eventsOf(ctx, parent.run_id);
    // Each claim is an attempt: the first, the recovery, and one more per park on subagent_await (when the
    // child is still running at the await, which depends on how fast the child's turn is).
    const parks = parentEvents.filter(
      (event) => event.type === 'status' && event.payload.status === 'waiting',
    );
    expect(attempts.attempts).toBe(2 + parks.length);
    const kids = await childRuns(ctx, parent.run_id);
    expect(kids).toHaveLength(1);
    const subagentEvents = parentEvents.filter((event) => event.type === 'subagent');
    expect(subagentEvents.map((event) => [event.payload.run_id, event.payload.status])).toEqual([
      [kids[0].id, 'queued'],
      [kids[0].id, 'completed'],
    ]);
  });

  it('emits one started and one ended event per child when nothing is recovered', async () => {
    scripts
      .on('plain child task', () => ({ text: 'plain done' }))
      .on(
        'plain parent',
        parentTurns([
          () => ({ toolCalls: [startCall('p1', 'plain child task')] }),
          (r) => ({ toolCalls: [call('pa', 'subagent_await', { run_id: r.get('p1')!.run_id })] }),
          () => ({ text: 'plain' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'plain parent' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [kid] = await childRuns(ctx, parent.run_id);
    const subagentEvents = (await eventsOf(ctx, parent.run_id)).filter((event) => event.type === 'subagent');
    expect(subagentEvents.map((event) => [event.payload.run_id, event.payload.status])).toEqual([
      [kid.id, 'queued'],
      [kid.id, 'completed'],
    ]);
  });
});
