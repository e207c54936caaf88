import { Logger } from '@nestjs/common';
import { DomainError, asDependencyOutage } from '../../../../common/errors/index.js';
import { RunAuthorizationRevokedError, ToolsErrors } from '../../tools.errors.js';
import { outcomeOf, ToolCallStopped } from '../tool-call-end.js';
import type {
  NextStep,
  ToolCallEnd,
  ToolCallResult,
  ToolCallScope,
  ToolInterceptor,
} from '../tool-call-scope.js';
import { errorToContent } from '../tool-result-content.js';

/**
 * Settles the call: sets how it ended (`scope.end`) and turns anything thrown into a structured result
 * bound to the call's tool_call_id, so the run goes on. Only a revoked authorization passes through and
 * ends the run. A lost database or Redis connection (also in the authorization re-check) is
 * `common.dependency_unavailable`, which the model may retry. Unexpected errors are logged and shown to
 * the model without internals.
 */
export class ErrorResultInterceptor implements ToolInterceptor {
  private readonly logger = new Logger('ToolExecutor');

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    try {
      const result = await next();
      scope.end = { kind: 'success' };
      return result;
    } catch (thrown) {
      if (thrown instanceof RunAuthorizationRevokedError) {
        scope.end = { kind: 'authorization_revoked', code: thrown.code };
        throw thrown;
      }
      if (thrown instanceof ToolCallStopped) {
        return this.errorResult(scope, thrown.error, { kind: thrown.reason, code: thrown.error.code });
      }
      const error = this.toDomainError(scope, thrown);
      const kind = scope.handlerStarted ? 'tool_error' : 'refused';
      return this.errorResult(scope, error, { kind, code: error.code });
    }
  }

  private errorResult(scope: ToolCallScope, error: DomainError, end: ToolCallEnd): ToolCallResult {
    scope.end = end;
    return {
      toolCallId: scope.call.id,
      name: scope.call.name,
      content: errorToContent(error),
      isError: true,
      outcome: outcomeOf(end),
      errorCode: error.code,
    };
  }

  private toDomainError(scope: ToolCallScope, thrown: unknown): DomainError {
    if (thrown instanceof DomainError) return thrown;
    const log = { err: thrown, tool: scope.call.name, run_id: scope.context.runId };
    const outage = asDependencyOutage(thrown);
    if (outage !== null) {
      this.logger.warn(log, 'tool call met a dependency outage');
      return outage;
    }
    this.logger.error(log, 'tool failed');
    return ToolsErrors.failed(scope.call.name);
  }
}
