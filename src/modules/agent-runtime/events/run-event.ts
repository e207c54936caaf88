/** The event types of a run's stream (`docs/api.md` "Run events"). */
export const RUN_EVENT_TYPES = [
  'status',
  'message_delta',
  'message',
  'tool_call',
  'tool_result',
  'waiting',
  'artifacts',
  'subagent',
  /** A component (an MCP server) left out of the run: `{component, server?, reason, code?, available: false}`. */
  'unavailable',
  /** One model call's usage: `{model, input_tokens, output_tokens, cached_tokens}`. */
  'usage',
  /** The thread's history was compressed to fit the model: `{status, tokens_before, tokens_after?}`. */
  'context_compression',
  'error',
  'done',
] as const;
export type RunEventType = (typeof RUN_EVENT_TYPES)[number];

/** An event as stored, published and sent: the SSE `data` of one frame. */
export interface RunEvent {
  run_id: string;
  seq: number;
  type: RunEventType;
  payload: Record<string, unknown>;
  created_at: string;
}

/** An event before it is numbered. */
export interface NewRunEvent {
  type: RunEventType;
  payload: Record<string, unknown>;
}
