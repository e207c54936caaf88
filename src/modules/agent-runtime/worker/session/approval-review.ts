import type { AIMessage } from '@langchain/core/messages';
import type { CallAssessment } from '../../../tools/index.js';
import type { ApprovalInterrupt, ApprovalSource, PointApproval } from '../../approvals/approval-interrupt.js';
import type { SessionScope } from './session-scope.js';

/**
 * The calls of a model reply that need a person's decision under the agent's approval policy, each
 * assessed through the executor's guards as it would be executed (a call that may not run at all is
 * not asked about). Null when none does: the turn's calls run at once.
 */
export async function reviewCalls(scope: SessionScope, reply: AIMessage): Promise<ApprovalInterrupt | null> {
  const { toolContext } = scope.init;
  if (toolContext.approval === undefined) return null;
  // Calls past the turn's cap are never executed, so never asked about.
  const calls = (reply.tool_calls ?? []).slice(0, scope.deps.maxToolCallsPerTurn);
  const context = { ...toolContext, visibleTools: await scope.visibleToolNames() };
  const approvals: PointApproval[] = [];
  for (const call of calls) {
    const args = scope.invalidArgs.get(call.id!) ?? call.args;
    const assessed = await scope.deps.executor.assess({ id: call.id!, name: call.name, args }, context);
    if (assessed.kind === 'ask') approvals.push(pointApproval(scope, call, assessed));
  }
  if (approvals.length === 0) return null;
  return {
    kind: 'approval',
    tool_call_id: approvals[0].tool_call_id,
    request_id: reply.id ?? '',
    approvals,
  };
}

function pointApproval(
  scope: SessionScope,
  call: NonNullable<AIMessage['tool_calls']>[number],
  assessed: Extract<CallAssessment, { kind: 'ask' }>,
): PointApproval {
  const offered = scope.init.executable.find((tool) => tool.name === call.name);
  const server = assessed.tool.metadata.mcp?.server;
  return {
    tool_call_id: call.id!,
    name: call.name,
    args: call.args,
    source: sourceOf(scope, call.name, server),
    ...(server === undefined ? {} : { server }),
    reason: assessed.verdict.reason,
    args_schema: offered?.parameters ?? { type: 'object' },
  };
}

/** An MCP server's tool; a tool only a skill of the run brought; otherwise the service's own. */
function sourceOf(scope: SessionScope, name: string, server: string | undefined): ApprovalSource {
  if (server !== undefined) return 'mcp';
  const { tools, effective_skills: skills = [] } = scope.init.snapshot;
  const bySkill = skills.some((skill) => skill.tool_dependencies.includes(name));
  return bySkill && !tools.includes(name) ? 'skill' : 'builtin';
}
