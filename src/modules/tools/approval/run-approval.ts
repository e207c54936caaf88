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

/** The agent's approval policy and the thread's remembered tools. */
export interface ApprovalRules {
  decider: ApprovalDecider;
  /** Approval names (`execute`, `mcp:<server>:<tool>`) approved for the whole thread. */
  remembered: ReadonlySet<string>;
}

/** What a run's calls are decided with: its rules and, once its approval point was answered, the answers. */
export interface RunApproval {
  /**
   * The rules, read when the first call that is not a base tool asks for them and kept for the rest of
   * the execution: a run that only calls base tools never reads them.
   */
  rules(): Promise<ApprovalRules>;
  /** The person's decisions, by tool_call_id, once the run's approval point was answered. */
  decisions: ReadonlyMap<string, UserApprovalDecision>;
}

/** How the approval guard decided one call, kept on its scope for the audit row. */
export interface CallApproval {
  verdict: ApprovalVerdict;
  user?: UserApprovalDecision;
}
