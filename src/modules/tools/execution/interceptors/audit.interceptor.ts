import { canonicalDigest } from '../../../../common/crypto/canonical-digest.js';
import type { ToolCallAuditWriter } from '../audit/tool-call-audit-writer.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/** Length of the `tool_calls` text columns the model fills (`tool_call_id`, `tool_name`). */
const AUDIT_TEXT_MAX = 200;

/**
 * Model-sent text cut to its column and without NUL (PostgreSQL refuses both, and the writer would drop
 * the row): a call with an absurd name is still audited.
 */
function fitColumn(value: string): string {
  return value.replaceAll('\0', '').slice(0, AUDIT_TEXT_MAX);
}

/** Records every call with its outcome (written in batches by `ToolCallAuditWriter`). */
export class AuditInterceptor implements ToolInterceptor {
  constructor(private readonly audit: ToolCallAuditWriter) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    const { call, context } = scope;
    this.audit.record({
      runId: context.runId,
      threadId: context.threadId,
      toolCallId: fitColumn(call.id),
      toolName: fitColumn(call.name),
      userId: context.user.id,
      argsDigest: canonicalDigest(call.args),
      outcome: result.outcome,
      errorCode: result.errorCode,
      durationMs: Math.round(performance.now() - scope.startedAt),
    });
    return result;
  }
}
