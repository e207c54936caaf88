import { Logger } from '@nestjs/common';
import { canonicalDigest } from '../audit/canonical-digest.js';
import type { ToolCallAuditRepository } from '../audit/tool-call-audit.repository.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';

/**
 * Records every call with its outcome. A failed audit write is logged and does not change the result
 * the model gets (the call already happened).
 */
export class AuditInterceptor implements ToolInterceptor {
  private readonly logger = new Logger('ToolAudit');

  constructor(private readonly audit: ToolCallAuditRepository) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    const result = await next();
    const { call, context } = scope;
    try {
      await this.audit.insert({
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
    } catch (error) {
      this.logger.error(
        { err: error, tool: call.name, run_id: context.runId },
        'could not write the tool call audit',
      );
    }
    return result;
  }
}
