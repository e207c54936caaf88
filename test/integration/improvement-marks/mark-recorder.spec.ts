import { randomUUID } from 'node:crypto';
import type { DomainError } from '../../../src/common/errors/domain-error';
import { MarkForImprovementTool } from '../../../src/modules/improvement-marks/tool/mark-for-improvement.tool';
import {
  noRuntimeCheck,
  type DirectToolContext,
  type ToolExecutionContext,
  type ToolInvocation,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { RunAuthorizationRevokedError } from '../../../src/modules/tools/tools.errors';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';
import { marksOfRun } from './mark-rows';

const TOOL = 'mark_for_improvement';

/**
 * The tool's own checks, through the execution boundary without the runtime's per-call check
 * (`verifyAuthorization: noRuntimeCheck`): what the tool's transaction refuses by itself. API role only, so no
 * worker touches the runs, whose lease the test sets by hand.
 */
describe('mark_for_improvement: the write transaction (execution boundary, no runtime)', () => {
  let ctx: TestContext;
  let executor: ToolExecutor;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    executor = ctx.app.get(ToolExecutor);
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  /** A run of `owner` on `agentSlug`, claimed by hand under a fresh lease token. */
  async function heldRun(owner: TestUser, agentSlug = 'default-chatbot') {
    const threadId = await newThread(ctx, owner, agentSlug);
    const { run_id: runId } = await startRun(ctx, owner, threadId, { input: 'go' });
    const leaseToken = randomUUID();
    await ctx.dataSource.query(
      `UPDATE runs SET status = 'running', lease_token = $2, lease_expires_at = now() + interval '1 hour'
        WHERE id = $1`,
      [runId, leaseToken],
    );
    return { runId, threadId, leaseToken };
  }

  function contextOf(
    owner: TestUser,
    run: { runId: string; threadId: string; leaseToken: string },
    overrides: Partial<DirectToolContext> = {},
  ): ToolExecutionContext {
    return {
      user: { id: owner.id, role: owner.role, departmentId: owner.departmentId },
      runId: run.runId,
      threadId: run.threadId,
      leaseToken: run.leaseToken,
      workdir: `/home/gem/user-data/workdir/t-${run.threadId}/`,
      executableTools: new Set([TOOL]),
      visibleTools: new Set([TOOL]),
      isSubagent: false,
      verifyAuthorization: noRuntimeCheck,
      ...overrides,
    };
  }

  const callMark = (context: ToolExecutionContext, id: string, reason: string) =>
    executor.execute({ id, name: TOOL, args: { reason } }, context);

  it('saves under the invocation’s run and tool call and replays to the same id, also concurrently', async () => {
    const run = await heldRun(user);
    const context = contextOf(user, run);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => callMark(context, 'call_race', 'Same lead, five deliveries.')),
    );
    const rows = await marksOfRun(ctx, run.runId);
    expect(rows).toHaveLength(1);
    for (const result of results) {
      expect(result.isError).toBe(false);
      expect(JSON.parse(result.content)).toEqual({ id: rows[0].id, run_id: run.runId, saved: true });
    }
    const conflict = await callMark(context, 'call_race', 'Another lead.');
    expect(conflict).toMatchObject({ isError: true, errorCode: 'improvement_marks.conflict' });
    // Another tool call of the same run is another mark.
    const other = await callMark(context, 'call_other', 'Another lead.');
    expect(other.isError).toBe(false);
    expect((await marksOfRun(ctx, run.runId)).map((r) => r.tool_call_id).sort()).toEqual([
      'call_other',
      'call_race',
    ]);
  });

  it('refuses to save without a real run id, lease or tool call id', async () => {
    // Straight to the tool: the audit row of a call without a real run could not be stored either.
    const tool = ctx.app.get(MarkForImprovementTool);
    const run = await heldRun(user);
    const invocation = (context: ToolExecutionContext, toolCallId: string): ToolInvocation => ({
      context,
      toolCallId,
      signal: new AbortController().signal,
    });
    for (const [label, context, callId] of [
      ['no run id', contextOf(user, run, { runId: '' }), 'call_1'],
      ['a made-up run id', contextOf(user, run, { runId: 'run-1' }), 'call_1'],
      ['no lease token', contextOf(user, run, { leaseToken: '' }), 'call_1'],
      ['no tool call id', contextOf(user, run), ''],
      ['a blank tool call id', contextOf(user, run), '   '],
    ] as const) {
      const outcome = await tool.mark({ reason: `attempt with ${label}` }, invocation(context, callId)).then(
        () => 'saved',
        (error: DomainError) => `${error.kind}:${error.code}`,
      );
      expect({ label, outcome }).toEqual({ label, outcome: 'invalid:improvement_marks.run_context_missing' });
    }
    expect(await marksOfRun(ctx, run.runId)).toEqual([]);
    // The same call with the runtime's ids is saved.
    const saved = await tool.mark({ reason: 'with real ids' }, invocation(contextOf(user, run), 'call_1'));
    expect(saved).toEqual({ id: expect.any(String), run_id: run.runId, saved: true });
  });

  it('refuses the write and ends the run for this worker when its lease token is not the run’s', async () => {
    const run = await heldRun(user);
    const stale = contextOf(user, run, { leaseToken: randomUUID() });
    await expect(callMark(stale, 'call_stale', 'From a stale worker.')).rejects.toMatchObject({
      name: 'RunAuthorizationRevokedError',
      code: 'runs.lease_lost',
    });
    expect(await marksOfRun(ctx, run.runId)).toEqual([]);
    // Released leases count as lost too.
    await ctx.dataSource.query(`UPDATE runs SET lease_token = NULL WHERE id = $1`, [run.runId]);
    await expect(callMark(contextOf(user, run), 'call_released', 'After release.')).rejects.toBeInstanceOf(
      RunAuthorizationRevokedError,
    );
    expect(await marksOfRun(ctx, run.runId)).toEqual([]);
  });

  it('ends the run with auth.account_disabled when the account was disabled, saving nothing', async () => {
    const owner = await ctx.newUser();
    const run = await heldRun(owner);
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [owner.id]);
    await expect(callMark(contextOf(owner, run), 'call_x', 'Should not land.')).rejects.toMatchObject({
      code: 'auth.account_disabled',
    });
    expect(await marksOfRun(ctx, run.runId)).toEqual([]);
  });

  it('ends the run with agents.access_revoked when the user may no longer use the agent, saving nothing', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const member = await ctx.newUser();
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({
        name: 'Shared helper',
        slug: 'shared-helper',
        share_config: { version: 2, read_scope: { level: 'users', user_ids: [admin.id, member.id] } },
      });
    expect(created.status).toBe(201);
    const run = await heldRun(member, 'shared-helper');
    const context = contextOf(member, run);
    expect((await callMark(context, 'call_before', 'While shared.')).isError).toBe(false);

    const unshared = await ctx.http
      .patch('/api/agents/shared-helper')
      .set(auth(admin))
      .send({ share_config: { version: 2, read_scope: { level: 'users', user_ids: [admin.id] } } });
    expect(unshared.status).toBe(200);
    await expect(callMark(context, 'call_after', 'After unsharing.')).rejects.toMatchObject({
      code: 'agents.access_revoked',
    });
    expect((await marksOfRun(ctx, run.runId)).map((r) => r.tool_call_id)).toEqual(['call_before']);
  });

  it('refuses a run that belongs to another user or thread', async () => {
    const run = await heldRun(user);
    const intruder = await ctx.newUser();
    const asIntruder = await callMark(contextOf(intruder, run), 'call_i', 'Not my run.');
    expect(asIntruder).toMatchObject({ isError: true, errorCode: 'improvement_marks.run_mismatch' });
    const otherThread = await callMark(
      contextOf(user, run, { threadId: randomUUID() }),
      'call_t',
      'Wrong thread.',
    );
    expect(otherThread).toMatchObject({ isError: true, errorCode: 'improvement_marks.run_mismatch' });
    expect(await marksOfRun(ctx, run.runId)).toEqual([]);
  });

  it('is listed in the tool catalog as a builtin base tool', async () => {
    const res = await ctx.http.get('/api/system/tools').set(auth(user));
    expect(res.status).toBe(200);
    const items = res.body.items as { id: string; category: string; base: boolean; available: boolean }[];
    expect(items.find((t) => t.id === TOOL)).toMatchObject({
      id: TOOL,
      category: 'builtin',
      base: true,
      available: true,
    });
  });
});
