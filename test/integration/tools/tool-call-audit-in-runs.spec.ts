import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { runRow } from '../../support/runs/run-event-rows';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext } from '../../support/test-app';

describe('tool call audit in agent runs (fake model)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
  });

  afterAll(() => close());

  it("audits the call that ends the run because the runtime's re-check finds the account disabled", async () => {
    const victim = await ctx.newUser();
    const threadId = await newThread(ctx, victim);
    const hold = fake.holdNext();
    fake.script({
      toolCalls: [{ id: 'call_revoked', name: 'mark_for_improvement', args: { reason: 'Never stored.' } }],
    });
    const run = await startRun(ctx, victim, threadId, { input: 'go' });
    await hold.arrived;
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [victim.id]);
    hold.release();

    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({ code: 'auth.account_disabled' });
    await ctx.app.get(ToolCallAuditWriter).flush();
    const rows = await ctx.dataSource.query(
      `SELECT tool_call_id, tool_name, user_id, outcome, error_code FROM tool_calls WHERE run_id = $1`,
      [run.run_id],
    );
    expect(rows).toEqual([
      {
        tool_call_id: 'call_revoked',
        tool_name: 'mark_for_improvement',
        user_id: victim.id,
        outcome: 'revoked',
        error_code: 'auth.account_disabled',
      },
    ]);
  });
});
