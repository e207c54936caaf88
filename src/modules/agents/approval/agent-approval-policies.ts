import { Injectable, Logger } from '@nestjs/common';
import { approvalPolicySchema, DEFAULT_APPROVAL_POLICY, type ApprovalPolicy } from '../../tools/index.js';
import { AgentsRepository } from '../agents.repository.js';

/**
 * The approval policy an agent's tool calls run under now: its `config.approval` parsed with
 * `approvalPolicySchema` (omitted fields filled in), or the default (`auto`, no rules) when it sets none,
 * when the agent is gone, or when the stored value does not parse (it was checked on the way in, so that
 * is logged). Read afresh on every call: an edit applies to the next decision.
 */
@Injectable()
export class AgentApprovalPolicies {
  private readonly logger = new Logger(AgentApprovalPolicies.name);

  constructor(private readonly agents: AgentsRepository) {}

  /** By the agent's id (a run's `agentId`: a slug freed by a deletion could name a newer agent). */
  async ofAgentId(id: string): Promise<ApprovalPolicy> {
    return this.parse(await this.agents.storedApproval(id), `id ${id}`);
  }

  private parse(stored: unknown, agent: string): ApprovalPolicy {
    if (stored === undefined || stored === null) return defaultPolicy();
    const parsed = approvalPolicySchema.safeParse(stored);
    if (parsed.success) return parsed.data;
    this.logger.warn(`agent ${agent}: stored config.approval does not parse; using the default policy`);
    return defaultPolicy();
  }
}

/** A fresh copy: callers may keep or change what they get. */
function defaultPolicy(): ApprovalPolicy {
  return { ...DEFAULT_APPROVAL_POLICY, rules: [] };
}
