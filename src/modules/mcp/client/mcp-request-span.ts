import {
  ATTR,
  errorTypeOf,
  inSpan,
  SpanKind,
  SpanStatusCode,
  traceCarrier,
  type Span,
} from '../../../observability/tracing/index.js';
import { loadedMcpClientSdk } from './mcp-client-sdk.js';
import { McpTimeoutError } from './mcp-failure.js';

/** How one MCP request ended, on its span. */
export type McpRequestOutcome = 'ok' | 'tool_error' | 'error' | 'timeout' | 'cancelled';

/** A tool result with `isError` (the conventions' `error.type` for it). */
const TOOL_ERROR = 'tool_error';

/**
 * One MCP request as a client span, `mcp <method> [<tool>]`, active while `work` runs (the transport's
 * requests carry its `traceparent` in their headers). `work` gets the `_meta` to send in the request's
 * params (MCP's own trace context), or undefined with tracing off. A tool result with `isError` is
 * `tool_error`; a throw is `timeout` (no answer in time), `cancelled` (`signal` aborted: the caller
 * stopped waiting) or `error`, with its `error.type` (a JSON-RPC error's code, our error codes).
 */
export function inMcpRequestSpan<T>(
  request: {
    method: 'tools/call' | 'tools/list';
    server: string;
    tool?: string;
    signal?: AbortSignal;
    /** Told how the request ended, whether the span records or not (the metrics' hook). */
    onEnd?: (outcome: McpRequestOutcome) => void;
  },
  work: (meta: Record<string, string> | undefined, span: Span) => Promise<T>,
): Promise<T> {
  const name = request.tool === undefined ? `mcp ${request.method}` : `mcp ${request.method} ${request.tool}`;
  return inSpan(
    name,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        [ATTR.mcpMethodName]: request.method,
        [ATTR.mcpServer]: request.server,
        ...(request.tool === undefined ? {} : { [ATTR.genAiToolName]: request.tool }),
      },
    },
    async (span) => {
      const carrier = traceCarrier();
      const meta = Object.keys(carrier).length === 0 ? undefined : carrier;
      try {
        const result = await work(meta, span);
        const outcome = resultOutcome(result);
        request.onEnd?.(outcome);
        if (span.isRecording()) recordResult(span, outcome);
        return result;
      } catch (error) {
        const outcome = failureOutcome(error, request.signal);
        request.onEnd?.(outcome);
        if (span.isRecording()) {
          span.setAttribute(ATTR.mcpOutcome, outcome);
          span.setAttribute(ATTR.errorType, errorTypeOf(error));
        }
        throw error;
      }
    },
  );
}

function resultOutcome(result: unknown): McpRequestOutcome {
  const isError =
    typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
  return isError ? 'tool_error' : 'ok';
}

function recordResult(span: Span, outcome: McpRequestOutcome): void {
  span.setAttribute(ATTR.mcpOutcome, outcome);
  if (outcome !== 'tool_error') return;
  span.setAttribute(ATTR.errorType, TOOL_ERROR);
  span.setStatus({ code: SpanStatusCode.ERROR, message: TOOL_ERROR });
}

function failureOutcome(error: unknown, signal: AbortSignal | undefined): McpRequestOutcome {
  if (isTimeout(error) || (signal?.aborted === true && isTimeout(signal.reason))) return 'timeout';
  return signal?.aborted === true ? 'cancelled' : 'error';
}

/** Our own deadline (`withTimeout`), or the SDK's request timeout (JSON-RPC -32001). */
function isTimeout(error: unknown): boolean {
  if (error instanceof McpTimeoutError) return true;
  const sdk = loadedMcpClientSdk();
  return (
    sdk !== null && error instanceof sdk.McpError && error.code === (sdk.ErrorCode.RequestTimeout as number)
  );
}
