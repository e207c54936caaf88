import { ActiveRuns } from '../../../src/modules/agent-runtime/worker/active-runs';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { eventually, runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';
import { marksOfRun } from './mark-rows';

const mark = (id: string, reason: string) => ({ id, name: 'mark_for_improvement', args: { reason } });

describe('mark_for_improvement when the run loses its authorization or ends badly (fake model)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it('saves nothing when the lease changes hands during the model call that asks for the mark', async () => {
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({ toolCalls: [mark('call_stale', 'Written by a worker that lost its lease.')] });
    const run = await startRun(ctx, user, threadId, { input: 'go' });
    await hold.arrived;
    await ctx.dataSource.query(`UPDATE runs SET lease_token = gen_random_uuid() WHERE id = $1`, [run.run_id]);
    hold.release();
    // The worker notices at its next fenced write and lets the run go.
    const active = ctx.app.get(ActiveRuns);
    const idle = await eventually(
      () => Promise.resolve(active.size),
      (size) => size === 0,
    );
    expect(idle).toBe(0);

    expect(await marksOfRun(ctx, run.run_id)).toEqual([]);
    // The stale worker wrote nothing more: the run is still held by the other token.
    expect((await runRow(ctx, run.run_id)).status).toBe('running');
    expect((await storedEvents(ctx, run.run_id)).map((e) => e.type)).not.toContain('tool_result');
    // Nobody else holds it: end it so the reconciler never picks it up during later tests.
    await ctx.dataSource.query(
      `UPDATE runs SET status = 'failed', lease_token = NULL, finished_at = now() WHERE id = $1`,
      [run.run_id],
    );
  });

  it('ends the run with auth.account_disabled when the account is disabled before the mark is written', async () => {
    const victim = await ctx.newUser();
    const threadId = await newThread(ctx, victim);
    const hold = fake.holdNext();
    fake.script({ toolCalls: [mark('call_disabled', 'Should never be stored.')] });
    const run = await startRun(ctx, victim, threadId, { input: 'go' });
    await hold.arrived;
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [victim.id]);
    hold.release();

    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({ code: 'auth.account_disabled' });
    expect(await marksOfRun(ctx, run.run_id)).toEqual([]);
    const events = await storedEvents(ctx, run.run_id);
    expect(events.map((e) => e.type)).not.toContain('tool_result');
  });

  it('keeps a saved mark when a later model call fails the run', async () => {
    const threadId = await newThread(ctx, user);
    const first = fake.holdNext();
    const second = fake.holdNext();
    fake.script({ toolCalls: [mark('call_kept', 'The spreadsheet tool is missing; did it by hand.')] });
    const run = await startRun(ctx, user, threadId, { input: 'go' });
    await first.arrived;
    first.release();
    await second.arrived;
    fake.failNext(1, { kind: 'status', status: 400 });
    second.release();

    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({ code: 'models.bad_request' });
    const rows = await marksOfRun(ctx, run.run_id);
    expect(rows).toMatchObject([{ tool_call_id: 'call_kept', user_id: user.id }]);
    const got = await ctx.http.get(`/api/improvement-marks/${rows[0].id}`).set(auth(user));
    expect(got.status).toBe(200);
    expect(got.body.reason).toBe('The spreadsheet tool is missing; did it by hand.');
  });

  it('keeps a saved mark when the run is cancelled afterwards', async () => {
    const threadId = await newThread(ctx, user);
    const first = fake.holdNext();
    const second = fake.holdNext();
    fake.script({ toolCalls: [mark('call_cancel', 'The user asked twice for a shorter answer.')] });
    const run = await startRun(ctx, user, threadId, { input: 'go' });
    await first.arrived;
    first.release();
    await second.arrived;
    const cancelled = await ctx.http.post(`/api/runs/${run.run_id}/cancel`).set(auth(user));
    expect(cancelled.status).toBe(200);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('cancelled');
    second.release(); // the abandoned model call ends with an empty script; nothing listens any more

    expect(await marksOfRun(ctx, run.run_id)).toMatchObject([
      { tool_call_id: 'call_cancel', reason: 'The user asked twice for a shorter answer.' },
    ]);
  });
});
