import type { CallApproval } from '../approval/run-approval.js';
import type { RegisteredTool } from '../registry/tool-registry.js';
import type { RunAuthorizationRevokedError } from '../tools.errors.js';
import type { ToolCall, ToolExecutionContext } from './tool-execution-context.js';

/** The outcome as stored in `tool_calls.outcome`, counted by `ToolMetrics` and shown on the result. */
export type ToolCallOutcome = 'ok' | 'error' | 'refused' | 'timeout' | 'cancelled' | 'revoked';

/** How one call ended. Set once by the error-to-result stage; audit and metrics record it. */
export type ToolCallEnd =
  | { kind: 'success' }
  /** A guard (the authorization re-check included) stopped it before the handler ran. */
  | { kind: 'refused'; code: string }
  /** The handler failed: a domain error, a dependency outage or an unexpected error. */
  | { kind: 'tool_error'; code: string }
  /** The handler ran past its timeout and was aborted. */
  | { kind: 'timeout'; code: string }
  /** The run was cancelled while the handler ran. */
  | { kind: 'cancelled'; code: string }
  /** The run may no longer act (re-check or handler): the call ends the run instead of returning. */
  | { kind: 'authorization_revoked'; code: RunAuthorizationRevokedError['code'] };

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

/** One call travelling through the pipeline; each stage reads what it needs and fills in what it learns. */
export class ToolCallScope {
  /** Arguments after schema validation (defaults filled, strings trimmed by the schema). */
  args: unknown = undefined;
  /** Set once every guard passed and the handler was entered: a failure before it is a refusal. */
  handlerStarted = false;
  /** Aborted on timeout or run cancellation; its signal is the handler's. */
  readonly abortController = new AbortController();
  /** How the approval guard decided the call (null: no policy applied, or refused before it). */
  approval: CallApproval | null = null;
  /** Only the guards run, to learn whether the call needs a person's decision (`ToolExecutor.assess`). */
  assessing = false;
  /** How the call ended; `null` while it runs. */
  end: ToolCallEnd | null = null;
  readonly startedAt = performance.now();

  constructor(
    readonly call: ToolCall,
    readonly context: ToolExecutionContext,
    /** The tool the run was offered under the call's name; `undefined` for a name it was not offered. */
    readonly tool: RegisteredTool | undefined,
  ) {}

  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
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
