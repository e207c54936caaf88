import { canonicalDigest } from '../../../../common/crypto/canonical-digest.js';
import type { ToolCallAuditWriter } from '../audit/tool-call-audit-writer.js';
import { endOf, errorCodeOf, outcomeOf } from '../tool-call-end.js';
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

/** The approval columns of the call's row (see `ToolCallEntity`). */
function approvalColumns({ approval }: ToolCallScope): {
  decision: string | null;
  decidedBy: string | null;
  remembered: boolean;
} {
  if (approval === null) return { decision: null, decidedBy: null, remembered: false };
  const { verdict, user } = approval;
  if (user !== undefined) return { decision: user.decision, decidedBy: user.by, remembered: user.remember };
  return { decision: verdict.decision, decidedBy: verdict.decidedBy, remembered: false };
}

/**
 * Records every call with its outcome (written in batches by `ToolCallAuditWriter`), in `finally`: a call
 * refused by a guard, or ending the run because its authorization was revoked, leaves its row too.
 */
export class AuditInterceptor implements ToolInterceptor {
  constructor(private readonly audit: ToolCallAuditWriter) {}

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    try {
      return await next();
    } finally {
      this.record(scope);
    }
  }

  private record(scope: ToolCallScope): void {
    const { call, context } = scope;
    const end = endOf(scope);
    this.audit.record({
      runId: context.runId,
      threadId: context.threadId,
      toolCallId: fitColumn(call.id),
      toolName: fitColumn(call.name),
      userId: context.user.id,
      argsDigest: canonicalDigest(call.args),
      outcome: outcomeOf(end),
      errorCode: errorCodeOf(end),
      durationMs: Math.round(scope.elapsedMs()),
      ...approvalColumns(scope),
    });
  }
}
