import { ToolsErrors } from '../../tools.errors.js';
import type { ToolCallScope, ToolGuard } from '../tool-call-scope.js';

/**
 * Last guard: the agent's approval policy, after every authorization guard (a call that may not run is
 * refused, never asked about). `deny` refuses; `ask` needs the person's decision: without one the call
 * is only assessed (`ToolExecutor.assess`) or refused, a rejection is refused with the person's message.
 * It runs again when the decided call executes, so a policy tightened meanwhile still denies it.
 */
export class ApprovalGuard implements ToolGuard {
  canActivate(scope: ToolCallScope): void {
    const approval = scope.context.approval;
    const metadata = scope.tool?.metadata;
    if (approval === undefined || metadata === undefined) return;
    const { name, id } = scope.call;
    const verdict = approval.decider.decide(
      { name, base: metadata.base, sideEffects: metadata.sideEffects, mcp: metadata.mcp },
      approval.remembered,
    );
    scope.approval = { verdict };
    if (verdict.decision === 'deny') throw ToolsErrors.deniedByPolicy(name, verdict.decidedBy);
    if (verdict.decision === 'allow') return;
    const user = approval.decisions.get(id);
    if (user === undefined) {
      if (scope.assessing) return;
      throw ToolsErrors.approvalRequired(name);
    }
    scope.approval.user = user;
    if (user.decision === 'reject') throw ToolsErrors.rejectedByUser(name, user.message);
  }
}
