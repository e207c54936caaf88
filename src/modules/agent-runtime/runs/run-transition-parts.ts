import { doneEvent, statusEvent } from '../events/run-events.js';
import type { NewRunEvent, RunEvent } from '../events/run-event.js';
import type { RunStatus } from './run-status.js';
import type { RunEntity, RunError, TokenUsage } from './run.entity.js';
import type { QueuedRun } from './runs.repository.js';
import { RunFailureCodes } from './runs.errors.js';
import { ACTIVE_LIST } from './thread-queue.js';

// The types, SQL fragments and event lists of `RunTransitions` (which alone writes `runs.status`).

export type ClaimResult =
  | { kind: 'claimed'; run: RunEntity }
  /** Another run holds the thread: try again shortly. */
  | { kind: 'not_head' }
  /** Finished, cancelled, held by a live lease, or gone: nothing to do. */
  | { kind: 'not_claimable' };

/** A new run's row, as run creation decides it; the status (`queued`) and times are the transitions'. */
export type NewRunRow = Pick<
  RunEntity,
  | 'id'
  | 'threadId'
  | 'userId'
  | 'agentSlug'
  | 'agentId'
  | 'originRequestId'
  | 'input'
  | 'model'
  | 'parentRunId'
  | 'requestId'
  | 'payloadDigest'
>;

export type ParkResult = 'parked' | 'not_running';

/** `requeued`: every awaited child had already ended (or the deadline passed) when the parent parked. */
export type AwaitParkResult = ParkResult | 'requeued';

/** What a terminal write returns about the run that ended (its parent is told). */
export interface EndedRow {
  status: RunStatus;
  thread_id: string;
  parent_run_id: string | null;
  agent_slug: string;
}

export const ENDED_COLUMNS = `status, thread_id, parent_run_id, agent_slug`;
export const QUEUED_COLUMNS = `id, attempts, origin_request_id AS "originRequestId", resume_request_id AS "resumeRequestId"`;

/**
 * `runs` (unaliased) is parked in `subagent_await` and may go on: every awaited child ended, or the
 * await's deadline passed.
 */
export const AWAIT_IS_DUE = `runs.status = 'waiting' AND runs.awaited_run_ids IS NOT NULL
  AND (runs.awaiting_until <= now() OR NOT EXISTS (
    SELECT 1 FROM runs c WHERE c.id = ANY(runs.awaited_run_ids) AND c.status IN ${ACTIVE_LIST}))`;

/** Publish `events` of `runId` after the commit, and enqueue `queued` if it was queued again. */
export interface ParentNotice {
  runId: string;
  events: RunEvent[];
  queued: QueuedRun | null;
}

export interface RunOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  error?: RunError;
}

export function terminalEvents(outcome: RunOutcome): NewRunEvent[] {
  const events: NewRunEvent[] = [];
  if (outcome.error !== undefined)
    events.push({ type: 'error', payload: { code: outcome.error.code, message: outcome.error.message } });
  events.push(statusEvent(outcome.status), doneEvent(outcome.status));
  return events;
}

export function workerLost(maxAttempts: number): RunError {
  return {
    code: RunFailureCodes.workerLost,
    message: `The worker executing the run stopped responding (${maxAttempts} attempts).`,
  };
}

/** The SET item that adds a model call's token usage to the run's (`param` binds a value). */
export const tokenUsageAdded =
  (usage: TokenUsage) =>
  (param: (value: unknown) => string): string =>
    `token_usage = jsonb_build_object(
          'input_tokens', coalesce((token_usage->>'input_tokens')::int, 0) + ${param(usage.input_tokens)},
          'output_tokens', coalesce((token_usage->>'output_tokens')::int, 0) + ${param(usage.output_tokens)},
          'total_tokens', coalesce((token_usage->>'total_tokens')::int, 0) + ${param(usage.total_tokens)})`;
