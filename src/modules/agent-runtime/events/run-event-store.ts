import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQueryIn } from '../../../database/prepared-query.js';
import { messageInsertSql, type NewMessage } from '../messages/messages.repository.js';
import type { CompanionSql } from '../graph/checkpoint-companion.js';
import type { NewRunEvent, RunEvent } from './run-event.js';

/** Who may append: the lease holder (its token is checked in the same statement) or any writer. */
export type EventFence = { leaseToken: string } | 'unfenced';

interface EventRow {
  run_id: string;
  seq: number;
  type: RunEvent['type'];
  payload: Record<string, unknown>;
  created_at: Date;
}

const toEvent = (row: EventRow): RunEvent => ({
  run_id: row.run_id,
  seq: row.seq,
  type: row.type,
  payload: row.payload,
  created_at: row.created_at.toISOString(),
});

/** The rows an append returned, as events in order; null when there are none (the fence refused). */
export function storedEvents(rows: readonly unknown[]): RunEvent[] | null {
  if (rows.length === 0) return null;
  return (rows as EventRow[]).map(toEvent).sort((a, b) => a.seq - b.seq);
}

const EVENT_COLUMNS = ['run_id', 'seq', 'type', 'payload', 'created_at'] as const;

/** The event columns of `table` under `prefix` (`<prefix>seq`, …), beside other columns of a statement. */
export const eventColumnsAs = (table: string, prefix: string): string =>
  EVENT_COLUMNS.map((column) => `${table}.${column} AS ${prefix}${column}`).join(', ');

/**
 * Rows that carry events read with `eventColumnsAs(…, prefix)` beside other columns: the events, in
 * order, and the first row's columns whose names do not start with `prefix`.
 */
export function splitEventRows(
  rows: readonly Record<string, unknown>[],
  prefix: string,
): { events: RunEvent[]; rest: Record<string, unknown> } {
  const events = rows.map((row) =>
    Object.fromEntries(EVENT_COLUMNS.map((column) => [column, row[`${prefix}${column}`]])),
  );
  const rest = Object.fromEntries(Object.entries(rows[0] ?? {}).filter(([key]) => !key.startsWith(prefix)));
  return { events: storedEvents(events) ?? [], rest };
}

/**
 * The first events of a run inserted by the same statement, as a CTE named `run_first_events` that
 * returns them (read them with `splitEventRows` or `storedEvents`): numbered from 1, so `from` (the CTE
 * of the new run, with an `id` column) must have created the run with `last_event_seq` = `events.length`.
 */
export function firstEventsSql(
  events: readonly NewRunEvent[],
  from: string,
  param: (value: unknown) => string,
): string {
  const types = param(events.map((event) => event.type));
  const payloads = param(events.map((event) => JSON.stringify(event.payload)));
  return `run_first_events AS (
       INSERT INTO run_events (run_id, seq, type, payload)
       SELECT ${from}.id, t.ord, t.type, t.payload
         FROM ${from}, unnest(${types}::text[], ${payloads}::jsonb[]) WITH ORDINALITY AS t(type, payload, ord)
       RETURNING run_id, seq, type, payload, created_at
     )`;
}

/**
 * An append's CTEs: the run's sequence bumped (under the lease, when fenced), the message if any, the
 * events numbered from it. Their names are not the checkpoint statement's (`CheckpointSql`).
 */
function appendSql(
  runId: string,
  events: readonly NewRunEvent[],
  fence: EventFence,
  message: NewMessage | undefined,
  runSet: RunRowSet | undefined,
  param: (value: unknown) => string,
): CompanionSql {
  const fenced = fence !== 'unfenced';
  if (message !== undefined && (!fenced || message.runId !== runId))
    throw new Error('a message is appended only with its own run, under the lease');
  if (runSet !== undefined && !fenced) throw new Error('the run row is changed only under the lease');
  const run = param(runId);
  const count = param(events.length);
  const types = param(events.map((event) => event.type));
  const payloads = param(events.map((event) => JSON.stringify(event.payload)));
  return {
    ctes: `run_seq AS (
         UPDATE runs SET last_event_seq = last_event_seq + ${count}${runSet === undefined ? '' : `, ${runSet(param)}`}
          WHERE id = ${run} ${fenced ? `AND lease_token = ${param(fence.leaseToken)}` : ''}
          RETURNING last_event_seq
       )${message === undefined ? '' : `, run_message AS (${messageInsertSql(message, param, 'run_seq')})`},
       run_events_added AS (
         INSERT INTO run_events (run_id, seq, type, payload)
         SELECT ${run}, run_seq.last_event_seq - ${count} + t.ord, t.type, t.payload
           FROM run_seq, unnest(${types}::text[], ${payloads}::jsonb[]) WITH ORDINALITY AS t(type, payload, ord)
         RETURNING run_id, seq, type, payload, created_at
       )`,
    holds: 'EXISTS (SELECT 1 FROM run_seq)',
    rows: 'SELECT run_id, seq, type, payload, created_at FROM run_events_added',
  };
}

/** Events per read of a replay. */
export const RUN_EVENT_REPLAY_PAGE = 500;

/**
 * A change of the run row made by the statement that numbers its events: `set` and `where` extend that
 * UPDATE (the row is `r`); `param` binds a value. Status changes use it only through `RunTransitions`
 * (`run-status-owner.spec.ts` checks its callers).
 */
export type RunRowChange = (param: (value: unknown) => string) => { set: string; where: string };

/** More SET items for the run row in a fenced append (a reply's token usage); `param` binds a value. */
export type RunRowSet = (param: (value: unknown) => string) => string;

/**
 * The run-event table. Sequence numbers come from the run row (`last_event_seq`), bumped in the same
 * statement that inserts the events, so they start at 1 and have no gaps whatever the writers.
 */
@Injectable()
export class RunEventStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Numbers and stores `events` in one statement. Returns them numbered, or `null` when the fence
   * refused (the lease is no longer this token's) and nothing was written. A fenced append may carry
   * the run's `message` the events announce: it is inserted in the same statement, under the same
   * fence (a message already stored under its id, from a re-executed step, is kept as it is), and
   * `runSet` changes more of the run row (fenced only).
   */
  async append(
    runId: string,
    events: readonly NewRunEvent[],
    fence: EventFence,
    manager: EntityManager = this.dataSource.manager,
    message?: NewMessage,
    runSet?: RunRowSet,
  ): Promise<RunEvent[] | null> {
    if (events.length === 0) return [];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const { ctes, rows } = appendSql(runId, events, fence, message, runSet, param);
    return storedEvents(await preparedQueryIn<EventRow>(manager, `WITH ${ctes} ${rows}`, params));
  }

  /**
   * The fenced append of `append` as parts of a larger statement (a checkpoint's): its CTEs, the
   * condition that the fence held, and the query of the stored events (read them with `storedEvents`).
   */
  fencedAppendSql(
    runId: string,
    events: readonly NewRunEvent[],
    leaseToken: string,
    message: NewMessage | undefined,
    runSet: RunRowSet | undefined,
    param: (value: unknown) => string,
  ): CompanionSql {
    if (events.length === 0) throw new Error('a fenced append as part of a statement has events');
    return appendSql(runId, events, { leaseToken }, message, runSet, param);
  }

  /**
   * Changes the run row and appends `events` (at least one) in one statement, so a status change and
   * its events need no transaction. Null when the row did not match `where` (nothing was written).
   * With `runColumns` (a RETURNING list of the run row `r`, as changed), the row comes back too.
   */
  async appendWithChange(
    runId: string,
    events: readonly NewRunEvent[],
    change: RunRowChange,
    runColumns?: string,
  ): Promise<{ events: RunEvent[]; run: Record<string, unknown> } | null> {
    if (events.length === 0) throw new Error('a run change is appended with at least one event');
    const params: unknown[] = [
      runId,
      events.length,
      events.map((event) => event.type),
      events.map((event) => JSON.stringify(event.payload)),
    ];
    const { set, where } = change((value) => `$${params.push(value)}`);
    const rows = await preparedQueryIn<Record<string, unknown>>(
      this.dataSource.manager,
      `WITH s AS (
         UPDATE runs r SET last_event_seq = r.last_event_seq + $2, ${set}
          WHERE r.id = $1 AND ${where}
          RETURNING r.last_event_seq AS event_last_seq${runColumns === undefined ? '' : `, ${runColumns}`}
       ), e AS (
         INSERT INTO run_events (run_id, seq, type, payload)
         SELECT $1, s.event_last_seq - $2 + t.ord, t.type, t.payload
           FROM s, unnest($3::text[], $4::jsonb[]) WITH ORDINALITY AS t(type, payload, ord)
         RETURNING run_id, seq, type, payload, created_at
       )
       SELECT ${eventColumnsAs('e', 'event_')}${runColumns === undefined ? '' : ', s.*'} FROM e, s`,
      params,
    );
    if (rows.length === 0) return null;
    // `event_last_seq` carries the prefix, so it is not taken for a run column.
    const { events: stored, rest } = splitEventRows(rows, 'event_');
    return { events: stored, run: rest };
  }

  /** Events after `afterSeq`, in order, at most one page. */
  async listAfter(runId: string, afterSeq: number, limit = RUN_EVENT_REPLAY_PAGE): Promise<RunEvent[]> {
    const rows = await preparedQueryIn<EventRow>(
      this.dataSource.manager,
      `SELECT run_id, seq, type, payload, created_at FROM run_events
        WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3`,
      [runId, afterSeq, limit],
    );
    return rows.map(toEvent);
  }
}
