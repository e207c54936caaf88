import {
  ATTR,
  errorTypeOf,
  inSpan,
  SpanKind,
  traceCarrier,
  type Span,
} from '../../../observability/tracing/index.js';

/** How one MCP request ended, on its span. */
export type McpRequestOutcome = 'ok' | 'tool_error' | 'error' | 'cancelled';

/**
 * One MCP request as a client span, `mcp <method> [<tool>]`, active while `work` runs (the transport's
 * requests carry its `traceparent` in their headers). `work` gets the `_meta` to send in the request's
 * params (MCP's own trace context), or undefined with tracing off. A throw is `error` (or `cancelled`
 * once `signal` aborted) with its `error.type`.
 */
export function inMcpRequestSpan<T>(
  request: { method: 'tools/call' | 'tools/list'; server: string; tool?: string; signal?: AbortSignal },
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
        if (span.isRecording()) span.setAttribute(ATTR.mcpOutcome, outcomeOfResult(result));
        return result;
      } catch (error) {
        if (span.isRecording()) {
          span.setAttribute(ATTR.mcpOutcome, request.signal?.aborted === true ? 'cancelled' : 'error');
          span.setAttribute(ATTR.errorType, errorTypeOf(error));
        }
        throw error;
      }
    },
  );
}

function outcomeOfResult(result: unknown): McpRequestOutcome {
  return typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true
    ? 'tool_error'
    : 'ok';
}
