import { Injectable } from '@nestjs/common';
import { AgentApprovalPolicies, type UsableAgent } from '../../agents/index.js';
import { ApprovalDecider, type RunApproval } from '../../tools/index.js';
import { ThreadToolApprovals } from './thread-tool-approvals.js';

/**
 * What an execution of a run decides its tool calls with: the agent's approval policy as saved now
 * (from the agent row the execution's authorization re-check read, not from the run's snapshot: a
 * policy tightened while a run waits applies when it resumes) and the tools approved for its thread,
 * read afresh by every execution (so after each decision) when the policy first asks about a call.
 */
@Injectable()
export class RunApprovalLoader {
  constructor(
    private readonly policies: AgentApprovalPolicies,
    private readonly thread: ThreadToolApprovals,
  ) {}

  load(agent: Pick<UsableAgent, 'id' | 'config'>, threadId: string): RunApproval {
    let remembered: Promise<ReadonlySet<string>> | undefined;
    return {
      decider: new ApprovalDecider(this.policies.of(agent)),
      remembered: () => (remembered ??= this.thread.of(threadId)),
      decisions: new Map(),
    };
  }
}
