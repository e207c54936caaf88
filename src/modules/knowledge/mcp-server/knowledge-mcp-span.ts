import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  ATTR,
  carriedParent,
  inSpan,
  SpanKind,
  SpanStatusCode,
} from '../../../observability/tracing/index.js';

/** The server's slug as its clients name it (`yuxi.mcp.server` on both sides of a request). */
const KNOWLEDGE_SERVER = 'knowledge';

/**
 * One knowledge tool call as a server span, `mcp tools/call <tool>`, continuing the caller's trace:
 * from the request's `params._meta.traceparent` (MCP's own trace context) unless the HTTP request
 * already continued it from its header. The span is active while the tool runs (its knowledge queries
 * nest under it); a tool error result is `tool_error`.
 */
export function inKnowledgeToolSpan(
  tool: string,
  meta: Record<string, unknown> | undefined,
  work: () => Promise<CallToolResult>,
): Promise<CallToolResult> {
  return inSpan(
    `mcp tools/call ${tool}`,
    {
      kind: SpanKind.SERVER,
      parent: carriedParent(meta),
      attributes: {
        [ATTR.mcpMethodName]: 'tools/call',
        [ATTR.mcpServer]: KNOWLEDGE_SERVER,
        [ATTR.genAiToolName]: tool,
      },
    },
    async (span) => {
      const result = await work();
      if (span.isRecording()) {
        span.setAttribute(ATTR.mcpOutcome, result.isError === true ? 'tool_error' : 'ok');
        if (result.isError === true) {
          span.setAttribute(ATTR.errorType, 'tool_error');
          span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool_error' });
        }
      }
      return result;
    },
  );
}
