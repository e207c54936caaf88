// The label values callers may pass: closed vocabularies, so no caller can put free text in a label.

export type RunEndStatus = 'completed' | 'failed' | 'cancelled';

/** How a tool call ended (as `tool_calls.outcome` stores it). */
export type ToolCallOutcomeLabel = 'ok' | 'error' | 'refused' | 'timeout' | 'cancelled' | 'revoked';

/** Where a tool comes from (its registry category); `(unknown)` for a name the run was not offered. */
export type ToolSourceLabel = 'builtin' | 'knowledge' | 'mcp' | 'debug' | '(unknown)';

export type ModelCallPurposeLabel = 'agent' | 'summary' | 'title';

/** `cancelled`: the run was stopped while the call was under way. */
export type ModelCallOutcomeLabel = 'ok' | 'error' | 'cancelled';

export type McpDiscoveryOutcomeLabel = 'ok' | 'error';
/** How a `tools/call` request to an MCP server ended (a result with `isError` is `tool_error`). */
export type McpToolCallOutcomeLabel = 'ok' | 'tool_error' | 'error' | 'timeout' | 'cancelled';

/**
 * How a sandboxed command ended: exit code 0, another exit code, killed at its timeout, killed when
 * the call was cancelled, killed for writing past the quota, or the sandbox failed to run it.
 */
export type SandboxOutcomeLabel = 'ok' | 'nonzero_exit' | 'timeout' | 'cancelled' | 'over_quota' | 'error';

/** The job states whose counts are exported per queue. */
export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;
export type QueueStateLabel = (typeof QUEUE_STATES)[number];
