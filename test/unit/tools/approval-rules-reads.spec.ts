import { ApprovalDecider } from '../../../src/modules/tools/approval/approval-decider';
import type { RunApproval } from '../../../src/modules/tools/approval/run-approval';
import { ApprovalGuard } from '../../../src/modules/tools/execution/guards/approval.guard';
import { ToolCallScope } from '../../../src/modules/tools/execution/tool-call-scope';
import type { ToolExecutionContext } from '../../../src/modules/tools/execution/tool-execution-context';
import type { RegisteredTool } from '../../../src/modules/tools/registry/tool-registry';
import { RunApprovalLoader } from '../../../src/modules/agent-runtime/approvals/run-approval-loader';

/** A tool as the guard sees it: only its metadata is read. */
const tool = (name: string, base: boolean): RegisteredTool =>
  ({ metadata: { name, base, sideEffects: base ? 'none' : 'execute' } }) as unknown as RegisteredTool;

const scopeOf = (name: string, base: boolean, approval: RunApproval): ToolCallScope =>
  new ToolCallScope(
    { id: `call-${name}`, name, args: {} },
    { approval } as unknown as ToolExecutionContext,
    tool(name, base),
  );

describe('when a run’s approval rules are read', () => {
  it('never for base tools: their calls are allowed without the policy or the thread’s tools', async () => {
    const approval: RunApproval = {
      rules: () => Promise.reject(new Error('a base tool read the rules')),
      decisions: new Map(),
    };
    const scope = scopeOf('read_file', true, approval);
    await new ApprovalGuard().canActivate(scope);
    expect(scope.approval?.verdict).toEqual({ decision: 'allow', decidedBy: 'base', reason: 'a base tool' });
  });

  it('once per execution, on the first call that is not a base tool, policy and thread tools together', async () => {
    const reads = { policy: 0, remembered: 0 };
    const loader = new RunApprovalLoader(
      {
        ofAgentId: () => {
          reads.policy++;
          return Promise.resolve({
            default: 'ask' as const,
            rules: [{ tool: 'execute', decision: 'allow' as const }],
          });
        },
      } as never,
      {
        of: () => {
          reads.remembered++;
          return Promise.resolve(new Set(['mcp:fs:write']));
        },
      } as never,
    );
    const approval = loader.load('agent-1', 'thread-1');
    expect(reads).toEqual({ policy: 0, remembered: 0 });

    const guard = new ApprovalGuard();
    await guard.canActivate(scopeOf('read_file', true, approval));
    expect(reads).toEqual({ policy: 0, remembered: 0 });

    const executed = scopeOf('execute', false, approval);
    const remembered = scopeOf('write', false, approval);
    remembered.tool!.metadata.mcp = { server: 'fs', annotations: {} };
    await Promise.all([guard.canActivate(executed), guard.canActivate(remembered)]);
    expect(executed.approval?.verdict.decidedBy).toBe('rule:1');
    expect(remembered.approval?.verdict.decidedBy).toBe('thread');
    expect(reads).toEqual({ policy: 1, remembered: 1 });

    // The next execution reads them afresh: a decision or a policy change in between applies.
    await guard.canActivate(scopeOf('execute', false, loader.load('agent-1', 'thread-1')));
    expect(reads).toEqual({ policy: 2, remembered: 2 });
  });

  it('with the default policy once the agent is gone', async () => {
    const loader = new RunApprovalLoader(
      { ofAgentId: () => Promise.reject(new Error('no agent to read')) } as never,
      { of: () => Promise.resolve(new Set<string>()) } as never,
    );
    const { decider } = await loader.load(null, 'thread-1').rules();
    expect(decider.decide({ name: 'execute', base: false, sideEffects: 'execute' }, new Set())).toEqual(
      new ApprovalDecider().decide({ name: 'execute', base: false, sideEffects: 'execute' }, new Set()),
    );
  });
});
