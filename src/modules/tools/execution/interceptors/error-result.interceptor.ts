import { Logger } from '@nestjs/common';
import { DomainError } from '../../../../common/errors/domain-error.js';
import { asDependencyOutage } from '../../../../common/errors/to-domain-error.js';
import { RunAuthorizationRevokedError, ToolsErrors } from '../../tools.errors.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';
import { errorToContent } from '../tool-result-content.js';

/**
 * Turns anything thrown into a structured result bound to the call's tool_call_id, so the run goes on.
 * Only a revoked authorization passes through and ends the run. A lost database or Redis connection
 * (also in the authorization re-check) is `common.dependency_unavailable`, which the model may retry.
 * Unexpected errors are logged and shown to the model without internals.
 */
export class ErrorResultInterceptor implements ToolInterceptor {
  private readonly logger = new Logger('ToolExecutor');

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    try {
      return await next();
    } catch (thrown) {
      if (thrown instanceof RunAuthorizationRevokedError) throw thrown;
      const error = this.toDomainError(scope, thrown);
      return {
        toolCallId: scope.call.id,
        name: scope.call.name,
        content: errorToContent(error),
        isError: true,
        outcome: error.code === 'tools.timeout' ? 'timeout' : scope.handlerStarted ? 'error' : 'refused',
        errorCode: error.code,
      };
    }
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
