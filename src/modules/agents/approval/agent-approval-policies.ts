import { Injectable, Logger } from '@nestjs/common';
import { approvalPolicySchema, DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from '../../tools/index.js';
import type { AgentConfig } from '../config/agent-config.js';

/**
 * The approval policy an agent's tool calls run under now: its `config.approval` parsed with
 * `approvalPolicySchema` (omitted fields filled in), or the default (`auto`, no rules) when it sets none
 * or when the stored value does not parse (it was checked on the way in, so that is logged). A run takes
 * it from the agent row its authorization re-check reads at every execution: an edit applies to the
 * next execution, at no extra read.
 */
@Injectable()
export class AgentApprovalPolicies {
  private readonly logger = new Logger(AgentApprovalPolicies.name);

  /** The policy of an agent as read now (`UsableAgent` of `AgentsService`). */
  of(agent: { id: string; config: Pick<AgentConfig, 'approval'> }): ApprovalPolicy {
    const stored: unknown = agent.config.approval;
    if (stored === undefined || stored === null) return defaultPolicy();
    const parsed = approvalPolicySchema.safeParse(stored);
    if (parsed.success) return parsed.data;
    this.logger.warn(`agent ${agent.id}: stored config.approval does not parse; using the default policy`);
    return defaultPolicy();
  }
}

/** A fresh copy: callers may keep or change what they get. */
function defaultPolicy(): ApprovalPolicy {
  return { ...DEFAULT_APPROVAL_POLICY, rules: [] };
}
