import {
  ATTR,
  inSpan,
  setContentAttribute,
  SpanKind,
  SpanStatusCode,
  type Span,
} from '../../../../observability/tracing/index.js';
import { endOf, errorCodeOf, outcomeOf } from '../tool-call-end.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/** The span name's tool for a name the run was not offered: never the model's own string. */
export const UNKNOWN_TOOL_SPAN_NAME = '(unknown)';
/** Model-sent text on a span (an invented name, a call id) is cut to this. */
const MODEL_TEXT_MAX = 200;

const cut = (text: string) => (text.length <= MODEL_TEXT_MAX ? text : text.slice(0, MODEL_TEXT_MAX));

/**
 * The call's span, `execute_tool <name>`, outermost: a refused call has one too, and the span is the
 * active context while the handler runs, so MCP requests, sandbox commands and subagent runs nest
 * under it. How the call ended (outcome, error code, approval) is set in `finally`, as audit does.
 * Arguments and result only while content capture is on.
 */
export class TracingInterceptor implements ToolInterceptor {
  intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const { call, tool } = scope;
    const name = tool === undefined ? UNKNOWN_TOOL_SPAN_NAME : call.name;
    return inSpan(
      `execute_tool ${name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: {
          [ATTR.genAiOperationName]: 'execute_tool',
          [ATTR.genAiToolName]: name,
          [ATTR.genAiToolType]: 'function',
          [ATTR.genAiToolCallId]: cut(call.id),
          ...(tool === undefined ? {} : { [ATTR.toolSource]: tool.metadata.category }),
          ...(tool?.metadata.mcp === undefined ? {} : { [ATTR.mcpServer]: tool.metadata.mcp.server }),
        },
      },
      async (span) => {
        if (tool === undefined && span.isRecording())
          span.setAttribute(ATTR.toolRequestedName, cut(call.name));
        setContentAttribute(span, ATTR.genAiToolCallArguments, () => call.args);
        try {
          const result = await next();
          setContentAttribute(span, ATTR.genAiToolCallResult, () => result.content);
          return result;
        } finally {
          recordEnd(span, scope);
        }
      },
    );
  }
}

function recordEnd(span: Span, scope: ToolCallScope): void {
  if (!span.isRecording()) return;
  const end = endOf(scope);
  const outcome = outcomeOf(end);
  span.setAttribute(ATTR.toolOutcome, outcome);
  const code = errorCodeOf(end);
  if (code !== null) {
    span.setAttribute(ATTR.errorType, code);
    span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }
  const { approval } = scope;
  if (approval !== null) {
    const { verdict, user } = approval;
    span.setAttribute(ATTR.toolApprovalDecision, user?.decision ?? verdict.decision);
    span.setAttribute(ATTR.toolApprovalDecidedBy, user === undefined ? verdict.decidedBy : 'user');
  }
}
