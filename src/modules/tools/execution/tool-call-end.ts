import type { DomainError } from '../../../common/errors/index.js';
import type { ToolCallEnd, ToolCallOutcome, ToolCallScope } from './tool-call-scope.js';
import { ToolsErrorCode } from '../tools.errors.js';

/** The stored outcome of an end: a call stopped by its run's cancellation is not a tool failure. */
export function outcomeOf(end: ToolCallEnd): ToolCallOutcome {
  switch (end.kind) {
    case 'success':
      return 'ok';
    case 'refused':
      return 'refused';
    case 'tool_error':
      return 'error';
    case 'cancelled':
      return 'cancelled';
    case 'timeout':
      return 'timeout';
    case 'authorization_revoked':
      return 'revoked';
  }
}

export function errorCodeOf(end: ToolCallEnd): string | null {
  return end.kind === 'success' ? null : end.code;
}

/**
 * How the call ended, for the stages that record it in `finally`. Every end is set by the error-to-result
 * stage; should anything ever escape past it unset, the call is still recorded, as a failure.
 */
export function endOf(scope: ToolCallScope): ToolCallEnd {
  return scope.end ?? { kind: 'tool_error', code: ToolsErrorCode.FAILED };
}

/** Thrown by the timeout stage when it stops the handler: the reason, typed, and the error the model sees. */
export class ToolCallStopped extends Error {
  constructor(
    readonly reason: 'timeout' | 'cancelled',
    readonly error: DomainError,
  ) {
    super(error.message);
    this.name = 'ToolCallStopped';
  }
}
