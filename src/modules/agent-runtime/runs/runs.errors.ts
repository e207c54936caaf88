import { DomainError } from '../../../common/errors/domain-error.js';

export const RunsErrors = {
  notFound: () => new DomainError('not_found', 'runs.not_found', 'Run not found.'),
  threadBusy: (activeRunId: string) =>
    new DomainError('conflict', 'runs.thread_busy', 'The thread already has an active run.', {
      details: { active_run_id: activeRunId },
    }),
  waitingForAnswer: (waitingRunId: string) =>
    new DomainError(
      'conflict',
      'runs.waiting_for_answer',
      'The thread has a run waiting for an answer: answer it or cancel it first.',
      { details: { waiting_run_id: waitingRunId } },
    ),
  alreadyFinished: (status: string) =>
    new DomainError('conflict', 'runs.already_finished', `The run has already finished (${status}).`, {
      details: { status },
    }),
  alreadyAnswered: () =>
    new DomainError('conflict', 'runs.already_answered', 'The question was already answered.'),
  notWaiting: () => new DomainError('conflict', 'runs.not_waiting', 'The run is not waiting for an answer.'),
  noWaitingPoint: () =>
    new DomainError('not_found', 'runs.waiting_point_not_found', 'The run never waited for an answer.'),
  tooManyStreams: (limit: number, retryAfterSeconds: number) =>
    new DomainError(
      'rate_limited',
      'runs.too_many_streams',
      `You already have ${limit} run event streams open; close one or try again later.`,
      { details: { limit }, retryAfterSeconds },
    ),
  waitTimeout: (runId: string, threadId: string) =>
    new DomainError('timeout', 'runs.wait_timeout', 'The run did not finish in time; follow it by its id.', {
      details: { run_id: runId, thread_id: threadId },
    }),
};

/** Failure reasons recorded on runs (`error.code`). */
export const RunFailureCodes = {
  workerLost: 'runs.worker_lost',
  stepLimitExceeded: 'runs.step_limit_exceeded',
  agentUnavailable: 'runs.agent_unavailable',
  authorizationRevoked: 'runs.authorization_revoked',
  internal: 'runs.internal_error',
} as const;
