import type { ApprovalDecider, ApprovalVerdict } from './approval-decider.js';

export const USER_DECISIONS = ['approve', 'reject', 'edit'] as const;
export type UserDecisionKind = (typeof USER_DECISIONS)[number];

/** A person's decision on one call that asked (an edit's new arguments are already the call's). */
export interface UserApprovalDecision {
  decision: UserDecisionKind;
  /** The user who decided. */
  by: string;
  /** For `reject`: what the model is told. */
  message?: string;
  /** The tool is allowed in this thread from now on (`remember: "thread"`). */
  remember: boolean;
}

/** What a run's calls are decided with: its agent's policy, the thread's remembered tools, the answers. */
export interface RunApproval {
  decider: ApprovalDecider;
  /**
   * Approval names (`execute`, `mcp:<server>:<tool>`) approved for the whole thread: read when the
   * policy first asks about a call, and kept for the rest of the execution.
   */
  remembered(): Promise<ReadonlySet<string>>;
  /** The person's decisions, by tool_call_id, once the run's approval point was answered. */
  decisions: ReadonlyMap<string, UserApprovalDecision>;
}

/** How the approval guard decided one call, kept on its scope for the audit row. */
export interface CallApproval {
  verdict: ApprovalVerdict;
  user?: UserApprovalDecision;
}
