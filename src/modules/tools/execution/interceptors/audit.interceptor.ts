import { canonicalDigest } from '../../../../common/crypto/canonical-digest.js';
import type { ToolCallAuditWriter } from '../audit/tool-call-audit-writer.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/** Records every call with its outcome (written in batches by `ToolCallAuditWriter`). */
export class AuditInterceptor implements ToolInterceptor {
  constructor(private readonly audit: ToolCallAuditWriter) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    const { call, context } = scope;
    this.audit.record({
      runId: context.runId,
      threadId: context.threadId,
      toolCallId: call.id,
      toolName: call.name,
      userId: context.user.id,
      argsDigest: canonicalDigest(call.args),
      outcome: result.outcome,
      errorCode: result.errorCode,
      durationMs: Math.round(performance.now() - scope.startedAt),
    });
    return result;
  }
}
