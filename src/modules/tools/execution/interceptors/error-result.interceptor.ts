import { Logger } from '@nestjs/common';
import { DomainError } from '../../../../common/errors/domain-error.js';
import { RunAuthorizationRevokedError, ToolsErrors } from '../../tools.errors.js';
import type { NextStep, ToolCallResult, ToolCallScope, ToolInterceptor } from '../tool-call-scope.js';
import { errorToContent } from '../tool-result-content.js';

/**
 * Turns anything thrown into a structured result bound to the call's tool_call_id, so the run goes on.
 * Only a revoked authorization passes through and ends the run. Unexpected errors are logged and shown
 * to the model without internals.
 */
export class ErrorResultInterceptor implements ToolInterceptor {
  private readonly logger = new Logger('ToolExecutor');

  async intercept(scope: ToolCallScope, next: NextStep): Promise<ToolCallResult> {
    try {
      return await next();
    } catch (thrown) {
      if (thrown instanceof RunAuthorizationRevokedError) throw thrown;
      let error: DomainError;
      if (thrown instanceof DomainError) {
        error = thrown;
      } else {
        this.logger.error({ err: thrown, tool: scope.call.name, run_id: scope.context.runId }, 'tool failed');
        error = ToolsErrors.failed(scope.call.name);
      }
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
}
