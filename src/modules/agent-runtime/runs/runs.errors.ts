import { DomainError, declareErrorCodes } from '../../../common/errors/index.js';
import { RunAuthorizationRevokedError } from '../../tools/index.js';

export const RunsErrorCode = {
  NOT_FOUND: 'runs.not_found',
  THREAD_BUSY: 'runs.thread_busy',
  WAITING_FOR_ANSWER: 'runs.waiting_for_answer',
  /** A subagent's child thread: its runs are started by its parent run only. */
  CHILD_THREAD: 'runs.child_thread',
  ALREADY_FINISHED: 'runs.already_finished',
  ALREADY_ANSWERED: 'runs.already_answered',
  NOT_WAITING: 'runs.not_waiting',
  WAITING_POINT_NOT_FOUND: 'runs.waiting_point_not_found',
  /** Answers sent to an approval point, or decisions to a questions point. */
  WAITING_POINT_KIND_MISMATCH: 'runs.waiting_point_kind_mismatch',
  TOO_MANY_STREAMS: 'runs.too_many_streams',
  /** The user already has `RUNS_MAX_ACTIVE_PER_USER` runs queued or running (429, Retry-After). */
  TOO_MANY_ACTIVE_RUNS: 'runs.too_many_active_runs',
  /** A tool call past `RUN_MAX_TOOL_CALLS_PER_TURN` in one model turn: answered, never executed. */
  TOO_MANY_TOOL_CALLS: 'runs.too_many_tool_calls',
  WAIT_TIMEOUT: 'runs.wait_timeout',
  WORKER_LOST: 'runs.worker_lost',
  STEP_LIMIT_EXCEEDED: 'runs.step_limit_exceeded',
  INTERNAL_ERROR: 'runs.internal_error',
  /** The worker no longer holds the run's execution lease: it stops without writing. */
  LEASE_LOST: 'runs.lease_lost',
  /** A model request that does not fit the model's context window, even compressed. */
  CONTEXT_OVERFLOW: 'runs.context_overflow',
  /** Shown to the model for a tool call of an earlier run that never returned. */
  TOOL_CALL_INTERRUPTED: 'runs.tool_call_interrupted',
} as const;
export type RunsErrorCode = (typeof RunsErrorCode)[keyof typeof RunsErrorCode];
declareErrorCodes(RunsErrorCode);

/** How long a client refused for too many active runs waits before trying again. */
const ACTIVE_RUNS_RETRY_AFTER_SECONDS = 10;

export const RunsErrors = {
  notFound: () => new DomainError('not_found', RunsErrorCode.NOT_FOUND, 'Run not found.'),
  threadBusy: (activeRunId: string) =>
    new DomainError('conflict', RunsErrorCode.THREAD_BUSY, 'The thread already has an active run.', {
      details: { active_run_id: activeRunId },
    }),
  waitingForAnswer: (waitingRunId: string) =>
    new DomainError(
      'conflict',
      RunsErrorCode.WAITING_FOR_ANSWER,
      'The thread has a run waiting for an answer: answer it or cancel it first.',
      { details: { waiting_run_id: waitingRunId } },
    ),
  childThread: (threadId: string) =>
    new DomainError(
      'conflict',
      RunsErrorCode.CHILD_THREAD,
      "This thread belongs to a subagent: it runs only through its parent conversation's run.",
      { details: { thread_id: threadId } },
    ),
  alreadyFinished: (status: string) =>
    new DomainError('conflict', RunsErrorCode.ALREADY_FINISHED, `The run has already finished (${status}).`, {
      details: { status },
    }),
  alreadyAnswered: () =>
    new DomainError('conflict', RunsErrorCode.ALREADY_ANSWERED, 'The question was already answered.'),
  notWaiting: () =>
    new DomainError('conflict', RunsErrorCode.NOT_WAITING, 'The run is not waiting for an answer.'),
  waitingPointKindMismatch: (kind: string) =>
    new DomainError(
      'conflict',
      RunsErrorCode.WAITING_POINT_KIND_MISMATCH,
      kind === 'approval'
        ? 'The run waits for decisions on tool calls: send them to /approvals.'
        : 'The run waits for answers to questions: send them to /answers.',
      { details: { kind } },
    ),
  noWaitingPoint: () =>
    new DomainError(
      'not_found',
      RunsErrorCode.WAITING_POINT_NOT_FOUND,
      'The run never waited for an answer.',
    ),
  tooManyStreams: (limit: number, retryAfterSeconds: number) =>
    new DomainError(
      'rate_limited',
      RunsErrorCode.TOO_MANY_STREAMS,
      `You already have ${limit} run event streams open; close one or try again later.`,
      { details: { limit }, retryAfterSeconds },
    ),
  tooManyActiveRuns: (limit: number) =>
    new DomainError(
      'rate_limited',
      RunsErrorCode.TOO_MANY_ACTIVE_RUNS,
      `You already have ${limit} runs queued or running; wait for one to end.`,
      { details: { limit }, retryAfterSeconds: ACTIVE_RUNS_RETRY_AFTER_SECONDS },
    ),
  tooManyToolCalls: (limit: number) =>
    new DomainError(
      'unprocessable',
      RunsErrorCode.TOO_MANY_TOOL_CALLS,
      `Only the first ${limit} tool calls of one reply are executed; call this one again in a later reply.`,
      { details: { limit } },
    ),
  contextOverflow: (details: { tokens: number; window_tokens: number; model: string }) =>
    new DomainError(
      'unprocessable',
      RunsErrorCode.CONTEXT_OVERFLOW,
      "The conversation does not fit the model's context window, even compressed.",
      { details },
    ),
  waitTimeout: (runId: string, threadId: string) =>
    new DomainError(
      'timeout',
      RunsErrorCode.WAIT_TIMEOUT,
      'The run did not finish in time; follow it by its id.',
      {
        details: { run_id: runId, thread_id: threadId },
      },
    ),
};

/** Failure reasons recorded on runs (`error.code`). */
export const RunFailureCodes = {
  workerLost: RunsErrorCode.WORKER_LOST,
  stepLimitExceeded: RunsErrorCode.STEP_LIMIT_EXCEEDED,
  internal: RunsErrorCode.INTERNAL_ERROR,
} as const;

/**
 * The one lease-lost error: a fenced write of the lease holder (event, message, snapshot, tool side
 * effect, authorization re-check) found the run's lease no longer this worker's. A revocation, so it
 * ends the run for this worker wherever it is thrown, also inside a tool call; `name` stays the
 * family's.
 */
export class LeaseLostError extends RunAuthorizationRevokedError {
  constructor(readonly runId: string) {
    super(RunsErrorCode.LEASE_LOST, `The run ${runId} is no longer held by this worker.`);
  }
}
