import { fromList, toLiteral } from './run-state-machine.js';
import { PipelinedTransaction } from '../../../database/pipelined-transaction.js';
import { inFlightOf, lockSlotsOfRun } from './user-run-slots.js';
import { ACTIVE_LIST, O_AHEAD_OF_R, R_IS_QUEUED_HEAD } from './thread-queue.js';

/**
 * Every statement that writes `runs`, `run_events` or `messages` (and `model_usage`, the usage of a
 * model call, written with its reply), each whole, with fixed placeholders
 * (so each is a named prepared statement). The statuses come from the state machine's table. `RunStore`
 * runs them; `test/unit/agent-runtime/run-sql-snapshot.spec.ts` renders them into
 * `docs/sql/run-statements.sql`, where a reviewer reads the SQL that runs and sees it change.
 */

/** Every column of a run, aliased to its `RunEntity` property (what `hydrate` reads). */
const RUN_ROW = `"id" AS "id", "thread_id" AS "threadId", "user_id" AS "userId", "agent_slug" AS "agentSlug",
    "agent_id" AS "agentId", "status" AS "status", "input" AS "input", "model" AS "model",
    "parent_run_id" AS "parentRunId", "awaited_run_ids" AS "awaitedRunIds", "awaiting_until" AS "awaitingUntil",
    "request_id" AS "requestId", "payload_digest" AS "payloadDigest", "origin_request_id" AS "originRequestId",
    "resume_request_id" AS "resumeRequestId", "origin_traceparent" AS "originTraceparent",
    "resume_traceparent" AS "resumeTraceparent", "config_snapshot" AS "configSnapshot", "lease_token" AS "leaseToken",
    "lease_expires_at" AS "leaseExpiresAt", "attempts" AS "attempts", "last_event_seq" AS "lastEventSeq",
    "error" AS "error", "token_usage" AS "tokenUsage", "created_at" AS "createdAt", "started_at" AS "startedAt",
    "finished_at" AS "finishedAt", "held_at" AS "heldAt"`;

/** What an ending returns about the run (its parent is told). */
const ENDED_ROW = `status, thread_id, parent_run_id, agent_slug`;
/** A queued run as the dispatcher enqueues it. */
export const QUEUED_ROW = `id, attempts, origin_request_id AS "originRequestId", resume_request_id AS "resumeRequestId",
    origin_traceparent AS "originTraceparent", resume_traceparent AS "resumeTraceparent"`;

/**
 * The events of run `run`, types `types` and payloads `payloads` (arrays), inserted numbered up to the
 * `last_event_seq` that `seq` (the CTE that bumped it) returned.
 */
const insertEvents = (
  seq: string,
  run: string,
  types: string,
  payloads: string,
) => `INSERT INTO run_events (run_id, seq, type, payload)
    SELECT ${run}, ${seq}.last_event_seq - cardinality(${types}::text[]) + t.ord, t.type, t.payload
      FROM ${seq}, unnest(${types}::text[], ${payloads}::jsonb[]) WITH ORDINALITY AS t(type, payload, ord)
    RETURNING run_id, seq, type, payload, created_at`;

/** A message (`$first`… : id, thread, run, role, content, tool calls, tool call id, name) stored if `from` has a row. */
const insertMessage = (from: string, first: number) => {
  const [id, thread, run, role, content, calls, callId, name] = [0, 1, 2, 3, 4, 5, 6, 7].map(
    (offset) => `$${first + offset}`,
  );
  return `INSERT INTO messages (id, thread_id, run_id, role, content, tool_calls, tool_call_id, name)
    SELECT ${id}, ${thread}, ${run}, ${role}, ${content}, ${calls}::jsonb, ${callId}, ${name} FROM ${from}
    ON CONFLICT (id) DO NOTHING`;
};

const EVENT_COLUMNS = `e.run_id AS event_run_id, e.seq AS event_seq, e.type AS event_type, e.payload AS event_payload,
         e.created_at AS event_created_at`;

/**
 * A model call's usage row (`model_usage`): id `call` (unique: a call recorded again inserts nothing),
 * run `run`, purpose `purpose`, and `$first`… model, input, output and cached tokens, the thread, user and
 * agent taken from `from` (a row of the run); then, only if the row was new, the call added to its
 * day's roll-up (`model_usage_daily`, UTC days), so both hold every call exactly once.
 */
const insertUsage = (from: string, run: string, call: string, purpose: string, first: number) => {
  const [model, input, output, cached] = [0, 1, 2, 3].map((offset) => `$${first + offset}`);
  return `usage_added AS (
    INSERT INTO model_usage (id, run_id, thread_id, user_id, agent_id, model, purpose, input_tokens,
                             output_tokens, cached_tokens)
    SELECT ${call}, ${run}, ${from}.thread_id, ${from}.user_id, ${from}.agent_id, ${model}, ${purpose}, ${input},
           ${output}, ${cached} FROM ${from}
    ON CONFLICT (id) DO NOTHING
    RETURNING created_at, user_id, agent_id, model, input_tokens, output_tokens, cached_tokens
  ), usage_daily AS (
    INSERT INTO model_usage_daily AS d (day, user_id, agent_id, model, input_tokens, output_tokens,
                                        cached_tokens, calls)
    SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, agent_id, model, input_tokens, output_tokens,
           cached_tokens, 1 FROM usage_added
    ON CONFLICT (day, user_id, agent_id, model) DO UPDATE SET input_tokens = d.input_tokens + EXCLUDED.input_tokens,
           output_tokens = d.output_tokens + EXCLUDED.output_tokens,
           cached_tokens = d.cached_tokens + EXCLUDED.cached_tokens, calls = d.calls + 1
  )`;
};

/**
 * A lease holder's events ($1 run, $2 types, $3 payloads, $4 lease) with the message they announce
 * ($5…$12), and `more` CTEs after them: the CTEs a checkpoint's statement takes as its companion
 * (`run_seq` has a row only under the lease).
 */
const fencedRecordCtes = (more: string) => `run_seq AS (
    UPDATE runs SET last_event_seq = last_event_seq + cardinality($2::text[])
     WHERE id = $1 AND lease_token = $4
     RETURNING last_event_seq, thread_id, user_id, agent_id
  ), run_message AS (
    ${insertMessage('run_seq', 5)}
  ), run_events_added AS (
    ${insertEvents('run_seq', '$1', '$2', '$3')}
  )${more}`;

const RECORD_CTES = fencedRecordCtes('');
/** A model's reply: the record, and the call's usage ($13…$16) keyed by the reply's message id ($5). */
const REPLY_CTES = fencedRecordCtes(`, ${insertUsage('run_seq', '$1', '$5', `'agent'`, 13)}`);
const ADDED_EVENTS = `SELECT run_id, seq, type, payload, created_at FROM run_events_added`;

export const RUN_SQL = {
  /**
   * A new run ($1…$12), queued with its first events ($13 types, $14 payloads) and its user message
   * ($15…$22). `created_at` orders the thread's queue: the time the run took the thread, not when the
   * transaction began.
   */
  createRun: `WITH created AS (
    INSERT INTO runs (id, thread_id, user_id, agent_slug, agent_id, status, input, model, parent_run_id,
                      request_id, payload_digest, origin_request_id, origin_traceparent, last_event_seq,
                      created_at)
    VALUES ($1, $2, $3, $4, $5, ${toLiteral('create')}, $6, $7, $8, $9, $10, $11, $12, cardinality($13::text[]),
            clock_timestamp())
    RETURNING ${RUN_ROW}
  ), run_seq AS (
    SELECT "id", "lastEventSeq" AS last_event_seq FROM created
  ), first_events AS (
    ${insertEvents('run_seq', 'run_seq."id"', '$13', '$14')}
  ), user_message AS (
    ${insertMessage('created', 15)}
  )
  SELECT created.*, ${EVENT_COLUMNS} FROM created, first_events e`,

  /**
   * Run $1 under lease $2 for $3 seconds, if it heads its thread and its user has fewer than $6 runs in
   * flight (under the user's slot lock, `user-run-slots.ts`), with its events ($4, $5).
   */
  claim: `WITH claimed AS (
    UPDATE runs r SET status = ${toLiteral('claim')}, lease_token = $2,
           lease_expires_at = now() + make_interval(secs => $3), attempts = r.attempts + 1, held_at = NULL,
           started_at = coalesce(r.started_at, now()), last_event_seq = r.last_event_seq + cardinality($4::text[])
     WHERE r.id = $1 AND r.status IN ${fromList('claim')}
       AND NOT EXISTS (SELECT 1 FROM runs o WHERE ${O_AHEAD_OF_R}) AND ${inFlightOf('r.user_id')} < $6
     RETURNING ${RUN_ROW}
  ), run_seq AS (
    SELECT "lastEventSeq" AS last_event_seq FROM claimed
  ), added AS (
    ${insertEvents('run_seq', '$1', '$4', '$5')}
  )
  SELECT claimed.*, ${EVENT_COLUMNS} FROM claimed, added e`,

  /** Renews the lease $2 of run $1 for $3 seconds. */
  renewLease: `UPDATE runs SET lease_expires_at = now() + make_interval(secs => $3)
    WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')
    RETURNING status`,

  /** The config snapshot $3 frozen on run $1 under lease $2. */
  saveSnapshot: `UPDATE runs SET config_snapshot = $3 WHERE id = $1 AND lease_token = $2 RETURNING 1`,

  /**
   * The lease holder ($2) ends run $1, which has no parent, as $3 with error $4, and its events ($5, $6),
   * in one statement.
   */
  endWithoutParent: `WITH ended AS (
    UPDATE runs SET status = $3, error = $4, finished_at = now(), lease_token = NULL, lease_expires_at = NULL,
           last_event_seq = last_event_seq + cardinality($5::text[])
     WHERE id = $1 AND lease_token = $2 AND status IN ${fromList('finish', 'fail', 'finish_cancelled')}
       AND parent_run_id IS NULL
     RETURNING last_event_seq
  ), added AS (
    ${insertEvents('ended', '$1', '$5', '$6')}
  )
  SELECT run_id, seq, type, payload, created_at FROM added`,

  /** The lease holder ($2) ends run $1 as $3 with error $4 (its events and parent follow in the transaction). */
  end: `UPDATE runs SET status = $3, error = $4, finished_at = now(), lease_token = NULL, lease_expires_at = NULL
    WHERE id = $1 AND lease_token = $2 AND status IN ${fromList('finish', 'fail', 'finish_cancelled')}
    RETURNING ${ENDED_ROW}`,

  /** The lease holder ($2) parks run $1 at a waiting point (questions, approval): it gives up its lease. */
  parkForQuestion: `UPDATE runs SET status = ${toLiteral('park_for_question')}, lease_token = NULL, lease_expires_at = NULL
    WHERE id = $1 AND lease_token = $2 AND status IN ${fromList('park_for_question')}
    RETURNING ${ENDED_ROW}`,

  /** The lease holder ($2) parks run $1 until its children $3 end, or until $4. */
  parkAwaitingChildren: `UPDATE runs SET status = ${toLiteral('park_awaiting_children')}, awaited_run_ids = $3::uuid[],
           awaiting_until = $4, lease_token = NULL, lease_expires_at = NULL
    WHERE id = $1 AND lease_token = $2 AND status IN ${fromList('park_awaiting_children')}
    RETURNING ${QUEUED_ROW}`,

  /** Run $1, parked for its children, queued again if every awaited child ended or the deadline passed. */
  wakeIfDue: `UPDATE runs SET status = ${toLiteral('wake')}, awaited_run_ids = NULL, awaiting_until = NULL
    WHERE runs.id = $1 AND runs.status IN ${fromList('wake')} AND runs.awaited_run_ids IS NOT NULL
      AND (runs.awaiting_until <= now() OR NOT EXISTS (
        SELECT 1 FROM runs c WHERE c.id = ANY(runs.awaited_run_ids) AND c.status IN ${ACTIVE_LIST}))
    RETURNING ${QUEUED_ROW}`,

  /**
   * Run $1, whose question was answered, queued again (the answering request $2 named on its logs, its
   * trace context $3 carried by its jobs).
   */
  requeueAnswered: `UPDATE runs SET status = ${toLiteral('requeue_answered')}, resume_request_id = $2,
           resume_traceparent = $3
    WHERE id = $1 AND status IN ${fromList('requeue_answered')}
    RETURNING 1`,

  /** The lease holder ($2) hands run $1 back: queued again, or cancelled if a cancel was requested. */
  release: `UPDATE runs SET
        status = CASE WHEN status IN ${fromList('release_cancelled')} THEN ${toLiteral('release_cancelled')}
                      ELSE ${toLiteral('release')} END,
        finished_at = CASE WHEN status IN ${fromList('release_cancelled')} THEN now() END,
        lease_token = NULL, lease_expires_at = NULL
    WHERE id = $1 AND lease_token = $2 AND status IN ${fromList('release', 'release_cancelled')}
    RETURNING ${ENDED_ROW}`,

  /**
   * Run $1 whose lease expired: cancelled if a cancel was requested, failed with $3 after $2 claims,
   * queued again otherwise.
   */
  recoverExpired: `UPDATE runs SET
        status = CASE WHEN status IN ${fromList('recover_cancelled')} THEN ${toLiteral('recover_cancelled')}
                      WHEN attempts >= $2 THEN ${toLiteral('recover_exhausted')} ELSE ${toLiteral('recover')} END,
        error = CASE WHEN status NOT IN ${fromList('recover_cancelled')} AND attempts >= $2 THEN $3::jsonb END,
        finished_at = CASE WHEN status IN ${fromList('recover_cancelled')} OR attempts >= $2 THEN now() END,
        lease_token = NULL, lease_expires_at = NULL
    WHERE id = $1 AND status IN ${fromList('recover', 'recover_exhausted', 'recover_cancelled')}
      AND lease_expires_at < now()
    RETURNING ${ENDED_ROW}, error`,

  /** The owner cancels run $1: at once when it holds no worker, otherwise its worker is asked to stop. */
  cancel: `UPDATE runs SET
        status = CASE WHEN status IN ${fromList('cancel')} THEN ${toLiteral('cancel')}
                      ELSE ${toLiteral('request_cancel')} END,
        finished_at = CASE WHEN status IN ${fromList('cancel')} THEN now() END,
        awaited_run_ids = NULL, awaiting_until = NULL
    WHERE id = $1 AND status IN ${fromList('cancel', 'request_cancel')}
    RETURNING ${ENDED_ROW}`,

  /** The open question of run $1 withdrawn (it was cancelled). */
  withdrawQuestion: `UPDATE waiting_points SET status = 'cancelled', cancelled_at = now()
    WHERE run_id = $1 AND status = 'open'`,

  /** Run $1's status, its row locked to the end of the transaction. */
  lockStatus: `SELECT status FROM runs WHERE id = $1 FOR UPDATE`,

  /** Events ($2 types, $3 payloads) of run $1, by any writer. */
  appendEvents: `WITH run_seq AS (
    UPDATE runs SET last_event_seq = last_event_seq + cardinality($2::text[]) WHERE id = $1
     RETURNING last_event_seq
  ), added AS (
    ${insertEvents('run_seq', '$1', '$2', '$3')}
  )
  SELECT run_id, seq, type, payload, created_at FROM added`,

  /** Events ($2 types, $3 payloads) of run $1 by the holder of lease $4. */
  appendEventsFenced: `WITH run_seq AS (
    UPDATE runs SET last_event_seq = last_event_seq + cardinality($2::text[]) WHERE id = $1 AND lease_token = $4
     RETURNING last_event_seq
  ), added AS (
    ${insertEvents('run_seq', '$1', '$2', '$3')}
  )
  SELECT run_id, seq, type, payload, created_at FROM added`,

  /** Events of run $1 by the holder of lease $4, with the message they announce ($5…$12). */
  appendRecord: `WITH ${RECORD_CTES} ${ADDED_EVENTS}`,

  /** `appendRecord` with the model call's usage row ($13 model, $14 input, $15 output, $16 cached tokens). */
  appendReply: `WITH ${REPLY_CTES} ${ADDED_EVENTS}`,

  /** `appendRecord`'s CTEs for a checkpoint's statement (`CheckpointCompanion`). */
  recordCompanion: RECORD_CTES,

  /** `appendReply`'s CTEs for a checkpoint's statement. */
  replyCompanion: REPLY_CTES,

  /**
   * A model call made for run $1 outside its agent's steps (purpose $3: `summary`, `title`), id $2,
   * $4 model, $5…$7 input, output and cached tokens; nothing when $2 is recorded already. Returns the
   * row when it was added.
   */
  recordModelUsage: `WITH run_row AS (
    SELECT thread_id, user_id, agent_id FROM runs WHERE id = $1
  ), ${insertUsage('run_row', '$1', '$2', '$3', 4)}
  SELECT created_at FROM usage_added`,

  /**
   * Assistant messages of run $1 that its checkpoint does not hold (ids not in $2): a lost worker stored
   * them for model calls that are made again. Tool results are kept (their ids are reused), and so are
   * the calls' `model_usage` rows: those calls were made and paid for.
   */
  deleteUncheckpointedReplies: `DELETE FROM messages WHERE run_id = $1 AND role = 'assistant' AND NOT (id::text = ANY($2::text[]))`,
} as const;

export type RunStatement = keyof typeof RUN_SQL;

/** The run columns `RUN_SQL` reads (checked against the entity by the snapshot test). */
export const RUN_ROW_COLUMNS = RUN_ROW;

/**
 * The writes of the per-user in-flight cap (`user-run-slots.ts`). They travel as simple-protocol
 * messages with a transaction's BEGIN or COMMIT (one round trip each), so their values are literals.
 */
export const RUN_SLOT_SQL = {
  /**
   * After a claim of run `runId` under its user's slot lock matched nothing, marks the run held if it is
   * the queued head of its thread (so the cap refused it); returns the run's id when it did. The count
   * is not taken again: a run of the user that left flight since then lets this one go once the lock is
   * free (`releaseHeld` waits for it, then sees the mark).
   */
  hold(runId: string): string {
    return `UPDATE runs r SET held_at = coalesce(r.held_at, now())
      WHERE r.id = ${PipelinedTransaction.literal(runId)} AND ${R_IS_QUEUED_HEAD}
      RETURNING r.id`;
  },

  /**
   * The held runs of the user of run `runId` that the user's free slots let go, oldest first, their mark
   * cleared: one message (`BEGIN`, the lock, the update, `COMMIT`), its rows the runs to dispatch.
   */
  releaseHeld(runId: string, cap: number): string {
    const run = PipelinedTransaction.literal(runId);
    const user = `(SELECT user_id FROM runs WHERE id = ${run})`;
    return `BEGIN; ${lockSlotsOfRun(runId)};
      UPDATE runs r SET held_at = NULL WHERE r.id IN (
        SELECT h.id FROM runs h WHERE h.user_id = ${user} AND h.status = 'queued' AND h.held_at IS NOT NULL
         ORDER BY h.created_at, h.id
         LIMIT greatest(0, ${PipelinedTransaction.integer(cap)} - ${inFlightOf(user)}))
      RETURNING ${QUEUED_ROW}; COMMIT`;
  },
};
