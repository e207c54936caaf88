import { Injectable } from '@nestjs/common';
import { AgentApprovalPolicies } from '../../agents/index.js';
import { ApprovalDecider, type ApprovalRules, type RunApproval } from '../../tools/index.js';
import { ThreadToolApprovals } from './thread-tool-approvals.js';

/**
 * What an execution of a run decides its tool calls with: the agent's approval policy as saved now
 * (not as the run's snapshot took it: a policy tightened while a run waits applies when it resumes)
 * and the tools approved for its thread. Read afresh by every execution, so after each decision, and
 * only when a call of a tool that is not a base tool is decided.
 */
@Injectable()
export class RunApprovalLoader {
  constructor(
    private readonly policies: AgentApprovalPolicies,
    private readonly remembered: ThreadToolApprovals,
  ) {}

  /** `agentId` null: the agent is gone (the run's authorization re-check ends it): the default policy. */
  load(agentId: string | null, threadId: string): RunApproval {
    let rules: Promise<ApprovalRules> | undefined;
    return { rules: () => (rules ??= this.read(agentId, threadId)), decisions: new Map() };
  }

  private async read(agentId: string | null, threadId: string): Promise<ApprovalRules> {
    const [policy, remembered] = await Promise.all([
      agentId === null ? undefined : this.policies.ofAgentId(agentId),
      this.remembered.of(threadId),
    ]);
    return { decider: new ApprovalDecider(policy), remembered };
  }
}
