import type { RegisteredTool } from '../registry/tool-registry.js';
import type { ToolCall, ToolExecutionContext } from './tool-execution-context.js';

export type ToolCallOutcome = 'ok' | 'error' | 'refused' | 'timeout';

/** What the model receives for one call, bound to its tool_call_id. */
export interface ToolCallResult {
  toolCallId: string;
  name: string;
  /** Exactly the ToolMessage content: the output text, or `{"error":{code,message,details?}}`. */
  content: string;
  isError: boolean;
  outcome: ToolCallOutcome;
  errorCode: string | null;
}

/** One call travelling through the pipeline; steps fill in what they learn. */
export interface ToolCallScope {
  readonly call: ToolCall;
  readonly context: ToolExecutionContext;
  readonly tool: RegisteredTool | undefined;
  /** Arguments after schema validation (defaults filled, strings trimmed by the schema). */
  args: unknown;
  /** Set once every guard passed and the handler was entered. */
  handlerStarted: boolean;
  readonly startedAt: number;
}

export type NextStep = () => Promise<ToolCallResult>;

/** Nest-style guard over a tool call: throw a `DomainError` to refuse. */
export interface ToolGuard {
  canActivate(scope: ToolCallScope): Promise<void> | void;
}

/** Nest-style interceptor around the rest of the pipeline. */
export interface ToolInterceptor {
  intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult>;
}
