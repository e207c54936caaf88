import { z } from 'zod';
import { ApprovalDecider } from '../../../src/modules/tools/approval/approval-decider';
import type { RunApproval } from '../../../src/modules/tools/approval/run-approval';
import {
  noRuntimeCheck,
  type DirectToolContext,
} from '../../../src/modules/tools/execution/tool-execution-context';
import { ToolExecutor } from '../../../src/modules/tools/execution/tool-executor';
import { ToolRegistry } from '../../../src/modules/tools/registry/tool-registry';

const TOOL = 'run_script';

/** An executor over a registry holding one tool that runs commands; assess needs nothing else. */
function executorWithTool(): ToolExecutor {
  const registry = new ToolRegistry();
  registry.registerHandler(
    {
      name: TOOL,
      category: 'debug',
      tags: [],
      displayName: 'run script',
      description: 'Runs a script.',
      schema: z.strictObject({}),
      sideEffects: 'execute',
    },
    () => Promise.resolve('ran'),
  );
  const unused = {} as never;
  return new ToolExecutor(
    registry,
    unused,
    unused,
    unused,
    { tools: { defaultTimeoutMs: 1000 } } as never,
    unused,
  );
}

function directContext(approval: RunApproval, extra: Partial<DirectToolContext> = {}): DirectToolContext {
  const tools = new Set([TOOL]);
  return {
    user: { id: 'u', role: 'user', departmentId: 'd' },
    runId: 'r',
    threadId: 't',
    leaseToken: 'l',
    workdir: '/home/gem/user-data/workdir/p/',
    executableTools: tools,
    visibleTools: tools,
    isSubagent: false,
    verifyAuthorization: noRuntimeCheck,
    approval,
    ...extra,
  };
}

const withDefault = (decision: 'ask' | 'allow'): RunApproval => ({
  decider: new ApprovalDecider({ default: decision, rules: [] }),
  remembered: () => Promise.resolve(new Set()),
  decisions: new Map(),
});
const askEverything = (): RunApproval => withDefault('ask');

describe('ToolExecutor.assess', () => {
  const call = { id: 'call-1', name: TOOL, args: {} };

  it('resolves a direct call’s tool from the registry, as execute does, and reports the ask', async () => {
    const assessment = await executorWithTool().assess(call, directContext(askEverything()));
    expect(assessment).toMatchObject({
      kind: 'ask',
      verdict: { decision: 'ask', decidedBy: 'default' },
      tool: { metadata: { name: TOOL } },
    });
  });

  it('resolves a call with offered tools from them only: a name not offered proceeds to its refusal', async () => {
    const context = directContext(askEverything(), { offeredTools: new Map() });
    expect(await executorWithTool().assess(call, context)).toEqual({ kind: 'proceed' });
  });

  it('proceeds with a call the policy allows or that a person already decided', async () => {
    expect(await executorWithTool().assess(call, directContext(withDefault('allow')))).toEqual({
      kind: 'proceed',
    });
    const decided = {
      ...askEverything(),
      decisions: new Map([[call.id, { decision: 'approve' as const, by: 'u', remember: false }]]),
    };
    expect(await executorWithTool().assess(call, directContext(decided))).toEqual({ kind: 'proceed' });
  });
});
