import { GraphRecursionError } from '@langchain/langgraph';
import type { Logger } from '@nestjs/common';
import { CommonErrorCode, DomainError, asDependencyOutage } from '../../../common/errors/index.js';
import { RunAuthorizationRevokedError } from '../../tools/index.js';
import { LeaseLostError, RunFailureCodes } from '../runs/runs.errors.js';
import type { RunOutcome } from '../runs/run-transitions.js';
import type { StopReason } from './active-runs.js';
import type { WaitingInterrupt } from '../questions/waiting-points.js';
import type { AwaitInterrupt } from './session/subagent-await.js';

/** How an execution ended for this worker: an outcome to record, or nothing (lease lost, handed back). */
export type Ending =
  | { kind: 'outcome'; outcome: RunOutcome }
  | { kind: 'waiting'; waiting: WaitingInterrupt }
  | { kind: 'awaiting'; wait: AwaitInterrupt }
  | { kind: 'stopped'; reason: StopReason };

/** The ending of an execution that threw `error` (not stopped by its signal); `logger` notes the unexpected. */
export function endingOfError(error: unknown, logger: Logger): Ending {
  if (error instanceof LeaseLostError) return { kind: 'stopped', reason: 'lease_lost' };
  if (error instanceof RunAuthorizationRevokedError) return failed(error.code, error.message);
  // PostgreSQL or Redis failed under the run (a blip, a failover): not the run's fault, so it is handed
  // back and resumed from its checkpoint by the reconciler instead of failing for good.
  if (asDependencyOutage(error) !== null || isOutageError(error)) {
    logger.warn({ err: error }, 'run interrupted by a dependency outage');
    return { kind: 'stopped', reason: 'dependency_outage' };
  }
  if (error instanceof GraphRecursionError)
    return failed(RunFailureCodes.stepLimitExceeded, 'The run reached its step limit (max_execution_steps).');
  if (error instanceof DomainError) return failed(error.code, error.message, error.details);
  logger.error({ err: error }, 'run failed unexpectedly');
  return failed(RunFailureCodes.internal, 'The run failed unexpectedly.');
}

function isOutageError(error: unknown): boolean {
  return error instanceof DomainError && error.code === CommonErrorCode.DEPENDENCY_UNAVAILABLE;
}

function failed(code: string, message: string, details?: Record<string, unknown>): Ending {
  return {
    kind: 'outcome',
    outcome: { status: 'failed', error: { code, message, ...(details ? { details } : {}) } },
  };
}
