import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import { hydrate } from '../../../database/prepared-find.js';
import { multiStatementRows, PipelinedTransaction } from '../../../database/pipelined-transaction.js';
import { poolOf, preparedQueryIn } from '../../../database/prepared-query.js';
import type { NewRunEvent, RunEvent } from '../events/run-event.js';
import type { CompanionSql } from '../graph/checkpoint-companion.js';
import type { NewMessage } from '../messages/messages.repository.js';
import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';
import { RUN_SLOT_SQL, RUN_SQL, type RunStatement } from './run-sql.js';
import type { RunStatus } from './run-status.js';
import { RunEntity, type RunError } from './run.entity.js';
import type { ModelCallUsage, ModelUsagePurpose } from '../usage/model-call-usage.js';
import type { QueuedRun } from './runs.repository.js';
import { lockSlotsOfRun } from './user-run-slots.js';

/** A new run's row, as run creation decides it; the status (`queued`) and times are the store's. */
export type NewRunRow = Pick<
  RunEntity,
  | 'id'
  | 'threadId'
  | 'userId'
  | 'agentSlug'
  | 'agentId'
  | 'originRequestId'
  | 'originTraceparent'
  | 'input'
  | 'model'
  | 'parentRunId'
  | 'requestId'
  | 'payloadDigest'
>;

/** What a statement that may end a run returns about it (its parent is told). */
export interface EndedRow {
  status: RunStatus;
  thread_id: string;
  parent_run_id: string | null;
  agent_slug: string;
}

export interface EventRow {
  run_id: string;
  seq: number;
  type: RunEvent['type'];
  payload: Record<string, unknown>;
  created_at: Date;
}

/** Stored event rows as events, in order. */
export function eventsOf(rows: readonly EventRow[]): RunEvent[] {
  return rows
    .map((row) => ({
      run_id: row.run_id,
      seq: row.seq,
      type: row.type,
      payload: row.payload,
      created_at: row.created_at.toISOString(),
    }))
    .sort((a, b) => a.seq - b.seq);
}

/** Rows carrying a run (`RUN_ROW`) beside its events (`event_*`): the run and its events. */
function runAndEvents(
  rows: readonly Record<string, unknown>[],
  runs: Repository<RunEntity>,
): { run: RunEntity; events: RunEvent[] } {
  const events = rows.map((row) => ({
    run_id: row.event_run_id,
    seq: row.event_seq,
    type: row.event_type,
    payload: row.event_payload,
    created_at: row.event_created_at,
  })) as EventRow[];
  const run = Object.fromEntries(Object.entries(rows[0]).filter(([key]) => !key.startsWith('event_')));
  return { run: hydrate(runs, run), events: eventsOf(events) };
}

const eventArrays = (events: readonly NewRunEvent[]) => [
  events.map((event) => event.type),
  events.map((event) => JSON.stringify(event.payload)),
];

const messageValues = (m: NewMessage) => [
  m.id,
  m.threadId,
  m.runId,
  m.role,
  m.content,
  m.toolCalls == null ? null : JSON.stringify(m.toolCalls),
  m.toolCallId ?? null,
  m.name ?? null,
];

const usageValues = (usage: ModelCallUsage) => [
  usage.model,
  usage.input_tokens,
  usage.output_tokens,
  usage.cached_tokens,
];

/**
 * A record of the lease holder: events, the message they announce, and, for a model's reply, the call's
 * usage (its `model_usage` row takes the message's id).
 */
export interface RunRecord {
  runId: string;
  events: readonly NewRunEvent[];
  leaseToken: string;
  message: NewMessage;
  usage?: ModelCallUsage;
}

/** A model call of a run made outside its agent's steps (`RunStore.recordModelUsage`). */
export interface SideModelCall {
  runId: string;
  /** The call's own id: recording it again adds nothing. */
  callId: string;
  purpose: Exclude<ModelUsagePurpose, 'agent'>;
  usage: ModelCallUsage;
}

/**
 * The one owner of the statements on `runs`, `run_events`, `messages` and `model_usage` writes (`run-sql.ts`): one
 * method per statement. A method given a manager runs in that manager's transaction. It applies; what
 * a change means (and what follows it) is `RunTransitions`'.
 */
@Injectable()
export class RunStore {
  private readonly runs: Repository<RunEntity>;

  constructor(private readonly dataSource: DataSource) {
    this.runs = dataSource.getRepository(RunEntity);
  }

  private query<T extends pg.QueryResultRow>(
    statement: RunStatement,
    values: unknown[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<T[]> {
    return preparedQueryIn<T>(manager, RUN_SQL[statement], values);
  }

  async createRun(
    manager: EntityManager,
    row: NewRunRow,
    events: readonly NewRunEvent[],
    userMessage: NewMessage,
  ): Promise<{ run: RunEntity; events: RunEvent[] }> {
    const rows = await this.query<Record<string, unknown>>(
      'createRun',
      [
        row.id,
        row.threadId,
        row.userId,
        row.agentSlug,
        row.agentId,
        row.input,
        row.model,
        row.parentRunId,
        row.requestId,
        row.payloadDigest,
        row.originRequestId,
        row.originTraceparent,
        ...eventArrays(events),
        ...messageValues(userMessage),
      ],
      manager,
    );
    return this.runAndEvents(rows);
  }

  /**
   * The run as claimed, with its events, under its user's slot lock; `held` when it heads its thread but
   * its user has `maxInFlight` runs in flight (it is marked held); null when it was not queued at the
   * head of its thread.
   */
  async claim(
    runId: string,
    leaseToken: string,
    leaseSeconds: number,
    events: readonly NewRunEvent[],
    maxInFlight: number,
  ): Promise<{ run: RunEntity; events: RunEvent[] } | 'held' | null> {
    const transaction = await PipelinedTransaction.begin(poolOf(this.dataSource), lockSlotsOfRun(runId));
    try {
      const rows = await transaction.query<Record<string, unknown>>(RUN_SQL.claim, [
        runId,
        leaseToken,
        leaseSeconds,
        ...eventArrays(events),
        maxInFlight,
      ]);
      if (rows.length > 0) {
        await transaction.commit();
        return this.runAndEvents(rows);
      }
      const held = await transaction.commit(RUN_SLOT_SQL.hold(runId));
      return held.length > 0 ? 'held' : null;
    } catch (error) {
      await transaction.rollback();
      throw error;
    }
  }

  /**
   * The held runs of the user of run `runId` (which just left flight) that free slots let go, their
   * mark cleared: the caller dispatches them.
   */
  async releaseHeldRuns(runId: string, maxInFlight: number): Promise<QueuedRun[]> {
    const result = await poolOf(this.dataSource).query(RUN_SLOT_SQL.releaseHeld(runId, maxInFlight));
    return multiStatementRows<QueuedRun>(result)[2];
  }

  async renewLease(runId: string, leaseToken: string, leaseSeconds: number): Promise<RunStatus | null> {
    const [row] = await this.query<{ status: RunStatus }>('renewLease', [runId, leaseToken, leaseSeconds]);
    return row?.status ?? null;
  }

  async saveSnapshot(runId: string, leaseToken: string, snapshot: RunConfigSnapshot): Promise<boolean> {
    const rows = await this.query('saveSnapshot', [runId, leaseToken, JSON.stringify(snapshot)]);
    return rows.length > 0;
  }

  /** The events as stored; null when the run has a parent or the lease is not this token's. */
  async endWithoutParent(
    runId: string,
    leaseToken: string,
    status: RunStatus,
    error: RunError | null,
    events: readonly NewRunEvent[],
  ): Promise<RunEvent[] | null> {
    const rows = await this.query<EventRow>('endWithoutParent', [
      runId,
      leaseToken,
      status,
      error === null ? null : JSON.stringify(error),
      ...eventArrays(events),
    ]);
    return rows.length === 0 ? null : eventsOf(rows);
  }

  async end(
    manager: EntityManager,
    runId: string,
    leaseToken: string,
    status: RunStatus,
    error: RunError | null,
  ): Promise<EndedRow | null> {
    const [row] = await this.query<EndedRow>(
      'end',
      [runId, leaseToken, status, error === null ? null : JSON.stringify(error)],
      manager,
    );
    return row ?? null;
  }

  /** The parked run's row (its parent, to be told), or null when it was not parked. */
  async parkForQuestion(manager: EntityManager, runId: string, leaseToken: string): Promise<EndedRow | null> {
    const [row] = await this.query<EndedRow>('parkForQuestion', [runId, leaseToken], manager);
    return row ?? null;
  }

  async parkAwaitingChildren(
    manager: EntityManager,
    runId: string,
    leaseToken: string,
    childRunIds: readonly string[],
    until: Date,
  ): Promise<QueuedRun | null> {
    const [row] = await this.query<QueuedRun>(
      'parkAwaitingChildren',
      [runId, leaseToken, childRunIds, until],
      manager,
    );
    return row ?? null;
  }

  async wakeIfDue(manager: EntityManager, runId: string): Promise<QueuedRun | null> {
    const [row] = await this.query<QueuedRun>('wakeIfDue', [runId], manager);
    return row ?? null;
  }

  async requeueAnswered(
    manager: EntityManager,
    runId: string,
    resumeRequestId: string | null,
    resumeTraceparent: string | null,
  ): Promise<boolean> {
    return (
      (await this.query('requeueAnswered', [runId, resumeRequestId, resumeTraceparent], manager)).length > 0
    );
  }

  async release(manager: EntityManager, runId: string, leaseToken: string): Promise<EndedRow | null> {
    const [row] = await this.query<EndedRow>('release', [runId, leaseToken], manager);
    return row ?? null;
  }

  async recoverExpired(
    manager: EntityManager,
    runId: string,
    maxAttempts: number,
    exhausted: RunError,
  ): Promise<(EndedRow & { error: RunError | null }) | null> {
    const [row] = await this.query<EndedRow & { error: RunError | null }>(
      'recoverExpired',
      [runId, maxAttempts, JSON.stringify(exhausted)],
      manager,
    );
    return row ?? null;
  }

  async cancel(manager: EntityManager, runId: string): Promise<EndedRow | null> {
    const [row] = await this.query<EndedRow>('cancel', [runId], manager);
    return row ?? null;
  }

  async withdrawQuestion(manager: EntityManager, runId: string): Promise<void> {
    await this.query('withdrawQuestion', [runId], manager);
  }

  async lockStatus(manager: EntityManager, runId: string): Promise<RunStatus | null> {
    const [row] = await this.query<{ status: RunStatus }>('lockStatus', [runId], manager);
    return row?.status ?? null;
  }

  /** By any writer; in `manager`'s transaction when given. */
  async appendEvents(
    runId: string,
    events: readonly NewRunEvent[],
    manager?: EntityManager,
  ): Promise<RunEvent[]> {
    return eventsOf(await this.query<EventRow>('appendEvents', [runId, ...eventArrays(events)], manager));
  }

  /** Null when the lease is not this token's (nothing written). */
  async appendEventsFenced(
    runId: string,
    events: readonly NewRunEvent[],
    leaseToken: string,
    manager?: EntityManager,
  ): Promise<RunEvent[] | null> {
    const rows = await this.query<EventRow>(
      'appendEventsFenced',
      [runId, ...eventArrays(events), leaseToken],
      manager,
    );
    return rows.length === 0 ? null : eventsOf(rows);
  }

  /**
   * A record of the lease holder in one statement (a message already stored under its id, from a
   * re-executed step, is kept as it is). Null when the lease is not this token's (nothing written).
   */
  async appendRecord(record: RunRecord): Promise<RunEvent[] | null> {
    const statement = record.usage === undefined ? 'appendRecord' : 'appendReply';
    const rows = await this.query<EventRow>(statement, recordValues(record));
    return rows.length === 0 ? null : eventsOf(rows);
  }

  /**
   * `appendRecord` as the companion of a checkpoint's statement: its CTEs (bound with `param`), the
   * condition the lease held, and the query of the stored events (read them with `eventsOf`).
   */
  recordCompanion(record: RunRecord, param: (value: unknown) => string): CompanionSql {
    const placeholders = recordValues(record).map(param);
    const ctes = RUN_SQL[record.usage === undefined ? 'recordCompanion' : 'replyCompanion'];
    return {
      ctes: ctes.replace(/\$(\d+)/g, (_, n: string) => placeholders[Number(n) - 1]),
      holds: 'EXISTS (SELECT 1 FROM run_seq)',
      rows: 'SELECT run_id, seq, type, payload, created_at FROM run_events_added',
    };
  }

  /**
   * The usage of a model call made for the run outside its agent's steps (a summary for context
   * compression, a title), with its day's roll-up, in one statement. False when `callId` was recorded
   * already (nothing added) or the run does not exist.
   */
  async recordModelUsage({ runId, callId, purpose, usage }: SideModelCall): Promise<boolean> {
    const rows = await this.query('recordModelUsage', [runId, callId, purpose, ...usageValues(usage)]);
    return rows.length > 0;
  }

  async deleteUncheckpointedReplies(runId: string, checkpointedIds: readonly string[]): Promise<void> {
    await this.query('deleteUncheckpointedReplies', [runId, checkpointedIds]);
  }

  private runAndEvents(rows: readonly Record<string, unknown>[]) {
    return runAndEvents(rows, this.runs);
  }
}

function recordValues({ runId, events, leaseToken, message, usage }: RunRecord): unknown[] {
  if (message.runId !== runId) throw new Error('a message is recorded only with its own run');
  return [
    runId,
    ...eventArrays(events),
    leaseToken,
    ...messageValues(message),
    ...(usage === undefined ? [] : usageValues(usage)),
  ];
}
