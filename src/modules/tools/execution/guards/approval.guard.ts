import { ToolsErrors } from '../../tools.errors.js';

const NOTHING_REMEMBERED: ReadonlySet<string> = new Set();
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/**
 * Last guard: the agent's approval policy, after every authorization guard (a call that may not run is
 * refused, never asked about). `deny` refuses, whatever a person decided; otherwise a person's decision
 * on the call applies (a rejection is refused with their message); `ask` without one is only assessed
 * (`ToolExecutor.assess`) or refused. It runs again when the decided call executes, so a policy
 * tightened meanwhile still denies it.
 */
export class ApprovalGuard implements ToolGuard {
  async canActivate(scope: ToolCallScope): Promise<void> {
    const approval = scope.context.approval;
    const metadata = scope.tool?.metadata;
    if (approval === undefined || metadata === undefined) return;
    const { name, id } = scope.call;
    const subject = { name, base: metadata.base, sideEffects: metadata.sideEffects, mcp: metadata.mcp };
    let verdict = approval.decider.decide(subject, NOTHING_REMEMBERED);
    // Only an `ask` can become `allow` by the thread's approvals: they are read for it alone.
    if (verdict.decision === 'ask') verdict = approval.decider.decide(subject, await approval.remembered());
    scope.approval = { verdict };
    if (verdict.decision === 'deny') throw ToolsErrors.deniedByPolicy(name, verdict.decidedBy);
    // A person's decision on this very call stands, even where the policy would now allow it.
    const user = approval.decisions.get(id);
    if (user !== undefined) {
      scope.approval.user = user;
      if (user.decision === 'reject') throw ToolsErrors.rejectedByUser(name, user.message);
      return;
    }
    if (verdict.decision === 'allow' || scope.assessing) return;
    throw ToolsErrors.approvalRequired(name);
  }
}
