import type { UserDecisionKind } from '../../tools/index.js';

/** Where an asked-about tool comes from, as the person sees it. */
export type ApprovalSource = 'builtin' | 'mcp' | 'skill';

/** One call of a model turn waiting for a person's decision. */
export interface PointApproval {
  tool_call_id: string;
  name: string;
  args: unknown;
  source: ApprovalSource;
  /** The MCP server, for `source: "mcp"`. */
  server?: string;
  /** Why the policy asks. */
  reason: string;
  /** JSON Schema of the tool's arguments: what an `edit` must satisfy. */
  args_schema: Record<string, unknown>;
}

/**
 * What the graph is interrupted with when calls of a turn need a decision (stored in the checkpoint):
 * every such call of the assistant message `request_id`; `tool_call_id` is the first of them.
 */
export interface ApprovalInterrupt {
  kind: 'approval';
  tool_call_id: string;
  request_id: string;
  approvals: PointApproval[];
}

export const isApprovalInterrupt = (value: unknown): value is ApprovalInterrupt =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'approval';

/** A person's decision on one call, as submitted (validated before it is stored). */
export interface SubmittedDecision {
  decision: UserDecisionKind;
  args?: Record<string, unknown>;
  message?: string;
  remember?: 'once' | 'thread';
}

/** What an approval point is answered with, and what the interrupted graph resumes with. */
export interface ApprovalAnswer {
  decisions: Record<string, SubmittedDecision>;
  /** The user who decided. */
  decided_by: string;
}

/** The decisions for the calls of assistant message `request_id`, kept in the graph state. */
export interface TurnDecisions extends ApprovalAnswer {
  request_id: string;
  /** The approval point's first call: names the point whose started calls are recorded. */
  point_tool_call_id: string;
}
