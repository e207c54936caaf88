import { RunApprovalLoader } from '../../../src/modules/agent-runtime/approvals/run-approval-loader';
import { AgentApprovalPolicies } from '../../../src/modules/agents/approval/agent-approval-policies';
import type { ApprovalPolicy } from '../../../src/modules/tools/approval/approval-policy';
import { ApprovalGuard } from '../../../src/modules/tools/execution/guards/approval.guard';
import { ToolCallScope } from '../../../src/modules/tools/execution/tool-call-scope';
import type { ToolExecutionContext } from '../../../src/modules/tools/execution/tool-execution-context';
import type { RunApproval } from '../../../src/modules/tools/approval/run-approval';
import type { RegisteredTool } from '../../../src/modules/tools/registry/tool-registry';

/** A tool as the guard sees it: only its metadata is read. */
const scopeOf = (name: string, approval: RunApproval, mcpServer?: string): ToolCallScope =>
  new ToolCallScope(
    { id: `call-${name}`, name, args: {} },
    { approval } as unknown as ToolExecutionContext,
    {
      metadata: {
        name,
        base: false,
        sideEffects: mcpServer === undefined ? 'execute' : 'external',
        ...(mcpServer === undefined ? {} : { mcp: { server: mcpServer, annotations: {} } }),
      },
    } as unknown as RegisteredTool,
  );

/** A loader over the given policy whose thread approvals count their reads. */
function loaderWith(policy: ApprovalPolicy, remembered: string[]) {
  const reads = { thread: 0 };
  const loader = new RunApprovalLoader(new AgentApprovalPolicies(), {
    of: () => {
      reads.thread++;
      return Promise.resolve(new Set(remembered));
    },
  } as never);
  const load = () => loader.load({ id: 'agent-1', config: { approval: policy } } as never, 'thread-1');
  return { reads, load };
}

describe('when a run reads its thread’s approved tools', () => {
  const guard = new ApprovalGuard();

  it('never while the policy allows or denies: only an ask can be turned into allow by them', async () => {
    const { reads, load } = loaderWith({ default: 'allow', rules: [{ tool: 'mcp:*', decision: 'deny' }] }, [
      'mcp:fs:write',
    ]);
    const approval = load();
    const allowed = scopeOf('execute', approval);
    await guard.canActivate(allowed);
    expect(allowed.approval?.verdict.decidedBy).toBe('default');
    await expect(guard.canActivate(scopeOf('write', approval, 'fs'))).rejects.toMatchObject({
      code: 'tools.denied_by_policy',
    });
    expect(reads.thread).toBe(0);
  });

  it('once per execution, at the first ask, and afresh in the next execution', async () => {
    const { reads, load } = loaderWith({ default: 'ask', rules: [] }, ['mcp:fs:write']);
    const approval = load();
    const remembered = scopeOf('write', approval, 'fs');
    const asked = scopeOf('execute', approval);
    await Promise.all([guard.canActivate(remembered), guard.canActivate(asked).catch(() => undefined)]);
    expect(remembered.approval?.verdict.decidedBy).toBe('thread');
    expect(asked.approval?.verdict).toMatchObject({ decision: 'ask', decidedBy: 'default' });
    expect(reads.thread).toBe(1);

    // A decision with `remember: "thread"` in between is seen by the next execution.
    await guard.canActivate(scopeOf('write', load(), 'fs'));
    expect(reads.thread).toBe(2);
  });
});
