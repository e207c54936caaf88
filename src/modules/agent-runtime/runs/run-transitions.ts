import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config.js';
import { RunEvents, statusEvent } from '../events/run-events.js';
import type { NewRunEvent, RunEvent } from '../events/run-event.js';
import { RunDispatcher } from '../queue/run-dispatcher.js';
import { retryOnConflict } from '../../../database/transient-conflict.js';
import { entityColumns, hydrate } from '../../../database/prepared-find.js';
import type { NewMessage } from '../messages/messages.repository.js';
import { createRunIn } from './run-create-statement.js';
import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';
import { RunCancelSignals } from '../worker/run-cancel-signals.js';
import type { RunStatus } from './run-status.js';
import { RunEntity, type RunError, type TokenUsage } from './run.entity.js';
import type { QueuedRun } from './runs.repository.js';
import { ACTIVE_LIST, R_IS_QUEUED_HEAD } from './thread-queue.js';
import { cancelRunIn } from './run-cancel-statement.js';
import { requeueDueAwaitIn, tellParentIn } from './run-parent-notice.js';
import {
  ENDED_COLUMNS,
  QUEUED_COLUMNS,
  terminalEvents,
  tokenUsageAdded,
  workerLost,
  type AwaitParkResult,
  type ClaimResult,
  type EndedRow,
  type NewRunRow,
  type ParentNotice,
  type ParkResult,
  type RunOutcome,
} from './run-transition-parts.js';

export type { AwaitParkResult, ClaimResult, NewRunRow, ParkResult, RunOutcome };

/**
 * Every change of a run's status (the only place that writes `runs.status`, checked by
 * `run-status-owner.spec.ts`), each in one transaction with the events it causes: its own, or the
 * caller's for the writes that belong to a larger one (creation, answering). Only the lease
 * holder (checked by token) ends a running run; the reconciler ends runs whose lease expired; queued
 * and waiting runs are cancelled directly. After a run leaves its thread, the next queued run of the
 * thread is enqueued.
 */
@Injectable()
export class RunTransitions {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: RunEvents,
    private readonly dispatcher: RunDispatcher,
    private readonly config: AppConfig,
    private readonly signals: RunCancelSignals,
  ) {}

  private get leaseSeconds(): number {
    return this.config.runtime.runLeaseSeconds;
  }

  /**
   * Inserts a new run, `queued`, with its first event and the user message it answers, in one
   * statement inside the creation's transaction (which holds the thread's lock). Publish the events
   * after the commit.
   */
  createIn(
    manager: EntityManager,
    row: NewRunRow,
    userMessage: NewMessage,
  ): Promise<{ run: RunEntity; events: RunEvent[] }> {
    return createRunIn(manager, row, userMessage);
  }

  /**
   * Takes the run under a new lease if it is queued and holds its thread (FIFO): the status change, its
   * event and the run as it is now, in one statement.
   */
  async claim(runId: string, leaseToken: string): Promise<ClaimResult> {
    const runs = this.dataSource.getRepository(RunEntity);
    const claimed = await this.events.changeAndAppend(
      runId,
      [statusEvent('running')],
      (param) => ({
        set: `status = 'running', lease_token = ${param(leaseToken)},
              lease_expires_at = now() + make_interval(secs => ${param(this.leaseSeconds)}),
              attempts = r.attempts + 1, started_at = coalesce(r.started_at, now())`,
        where: R_IS_QUEUED_HEAD,
      }),
      entityColumns(runs),
    );
    if (claimed !== null) {
      void this.events.publish(runId, claimed.events);
      return { kind: 'claimed', run: hydrate(runs, claimed.run) };
    }
    const current = await this.statusOf(runId);
    return current === 'queued' ? { kind: 'not_head' } : { kind: 'not_claimable' };
  }

  /** Renews the lease; the run's status, or null when the lease is no longer this token's. */
  async heartbeat(runId: string, leaseToken: string): Promise<RunStatus | null> {
    const [rows] = await this.dataSource.query<[{ status: RunStatus }[], number]>(
      `UPDATE runs SET lease_expires_at = now() + make_interval(secs => $3)
        WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')
        RETURNING status`,
      [runId, leaseToken, this.leaseSeconds],
    );
    return rows[0]?.status ?? null;
  }

  async saveSnapshot(runId: string, leaseToken: string, snapshot: RunConfigSnapshot): Promise<boolean> {
    const [, affected] = await this.dataSource.query<[unknown, number]>(
      `UPDATE runs SET config_snapshot = $3 WHERE id = $1 AND lease_token = $2`,
      [runId, leaseToken, JSON.stringify(snapshot)],
    );
    return affected > 0;
  }

  /** Adds a model call's token usage (a reply recorded by the worker carries it in its own statement). */
  async addUsage(runId: string, leaseToken: string, usage: TokenUsage): Promise<void> {
    const params: unknown[] = [runId, leaseToken];
    const set = tokenUsageAdded(usage)((value) => `$${params.push(value)}`);
    await this.dataSource.query(`UPDATE runs SET ${set} WHERE id = $1 AND lease_token = $2`, params);
  }

  /** The lease holder ends the run. False when the lease was lost (nothing written). */
  async finish(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    leaseToken: string,
    outcome: RunOutcome,
  ): Promise<boolean> {
    // A run with no parent has no one else to tell: its ending is one statement.
    const alone = await this.events.changeAndAppend(run.id, terminalEvents(outcome), (param) => ({
      set: `status = ${param(outcome.status)}, error = ${param(outcome.error === undefined ? null : JSON.stringify(outcome.error))},
            finished_at = now(), lease_token = NULL, lease_expires_at = NULL`,
      where: `r.lease_token = ${param(leaseToken)} AND r.status IN ('running', 'cancel_requested')
              AND r.parent_run_id IS NULL`,
    }));
    if (alone !== null) {
      await this.afterEnding(run, alone.events, null, true);
      return true;
    }
    const result = await this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[EndedRow[], number]>(
        `UPDATE runs SET status = $3, error = $4, finished_at = now(), lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')
          RETURNING ${ENDED_COLUMNS}`,
        [
          run.id,
          leaseToken,
          outcome.status,
          outcome.error === undefined ? null : JSON.stringify(outcome.error),
        ],
      );
      if (rows[0] === undefined) return null;
      const events = await this.events.appendIn(manager, run.id, terminalEvents(outcome));
      return { events, parent: await tellParentIn(manager, this.events, run.id, rows[0]) };
    });
    if (result === null) return false;
    await this.afterEnding(run, result.events, result.parent, true);
    return true;
  }

  /**
   * The lease holder's graph stopped at a question: the run becomes `waiting` and gives up its lease,
   * and `writePoint` stores the waiting point in the same transaction (its events come before the
   * status event). When the lease is gone or a cancel was requested meanwhile nothing is written, and
   * the cancel wins over the question (the run ends `cancelled` if this worker still holds it).
   */
  async park(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    leaseToken: string,
    writePoint: (manager: EntityManager) => Promise<NewRunEvent[]>,
  ): Promise<ParkResult> {
    const events = await this.dataSource.transaction(async (manager) => {
      const [, affected] = await manager.query<[unknown, number]>(
        `UPDATE runs SET status = 'waiting', lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status = 'running'`,
        [run.id, leaseToken],
      );
      if (affected === 0) return null;
      const pointEvents = await writePoint(manager);
      return this.events.appendIn(manager, run.id, [...pointEvents, statusEvent('waiting')]);
    });
    if (events === null) {
      await this.finish(run, leaseToken, { status: 'cancelled' });
      return 'not_running';
    }
    await this.events.publish(run.id, events);
    return 'parked';
  }

  /**
   * The lease holder's graph stopped in `subagent_await`: the run becomes `waiting` for `childRunIds`
   * (no waiting point) and gives up its lease, so its worker slot is free while the children run. The
   * last of them to end queues it again (`tellParentIn`), or a wake-up job at `until` does. A child
   * that ended before this park found the run still running: the row is locked now, so it is looked at
   * again here and the run queued at once if nothing is left to wait for. A cancel requested meanwhile
   * wins, as in `park`.
   */
  async parkAwaiting(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    leaseToken: string,
    childRunIds: string[],
    until: Date,
  ): Promise<AwaitParkResult> {
    const result = await this.dataSource.transaction(async (manager) => {
      const [parked] = await manager.query<[QueuedRun[], number]>(
        `UPDATE runs SET status = 'waiting', awaited_run_ids = $3::uuid[], awaiting_until = $4,
                lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status = 'running'
          RETURNING ${QUEUED_COLUMNS}`,
        [run.id, leaseToken, childRunIds, until],
      );
      if (parked[0] === undefined) return null;
      const queued = await requeueDueAwaitIn(manager, run.id);
      const statuses = queued === null ? ['waiting'] : ['waiting', 'queued'];
      return {
        parked: parked[0],
        queued,
        events: await this.events.appendIn(manager, run.id, statuses.map(statusEvent)),
      };
    });
    if (result === null) {
      await this.finish(run, leaseToken, { status: 'cancelled' });
      return 'not_running';
    }
    await this.events.publish(run.id, result.events);
    if (result.queued !== null) {
      await this.dispatcher.dispatch(result.queued);
      return 'requeued';
    }
    await this.dispatcher.dispatchWake(result.parked, until);
    return 'parked';
  }

  /** A run parked in `subagent_await` whose deadline passed (or whose children all ended) is queued. */
  async wakeDueAwait(runId: string): Promise<boolean> {
    const result = await this.dataSource.transaction(async (manager) => {
      const queued = await requeueDueAwaitIn(manager, runId);
      return queued === null
        ? null
        : { queued, events: await this.events.appendIn(manager, runId, [statusEvent('queued')]) };
    });
    if (result === null) return false;
    await this.events.publish(runId, result.events);
    await this.dispatcher.dispatch(result.queued);
    return true;
  }

  /**
   * An answered waiting run is `queued` again, inside the answer's transaction (which locked the run
   * row and found it `waiting`). Publish the events and enqueue the run after the commit.
   */
  async requeueAnsweredIn(
    manager: EntityManager,
    runId: string,
    resumeRequestId: string | null,
  ): Promise<RunEvent[]> {
    // The answering request is named on the log lines of the execution it resumes.
    await manager.query(`UPDATE runs SET status = 'queued', resume_request_id = $2 WHERE id = $1`, [
      runId,
      resumeRequestId,
    ]);
    return this.events.appendIn(manager, runId, [statusEvent('queued')]);
  }

  /** On shutdown: hand the run back (`queued`) so another worker continues it from its checkpoint. */
  async release(run: Pick<RunEntity, 'id' | 'threadId'>, leaseToken: string): Promise<boolean> {
    const result = await this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[EndedRow[], number]>(
        `UPDATE runs SET status = CASE WHEN status = 'cancel_requested' THEN 'cancelled' ELSE 'queued' END,
                finished_at = CASE WHEN status = 'cancel_requested' THEN now() END,
                lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')
          RETURNING ${ENDED_COLUMNS}`,
        [run.id, leaseToken],
      );
      const row = rows[0];
      if (row === undefined) return null;
      if (row.status !== 'cancelled')
        return {
          events: await this.events.appendIn(manager, run.id, [statusEvent(row.status)]),
          parent: null,
          ended: false,
        };
      const events = await this.events.appendIn(manager, run.id, terminalEvents({ status: 'cancelled' }));
      return { events, parent: await tellParentIn(manager, this.events, run.id, row), ended: true };
    });
    if (result === null) return false;
    await this.afterEnding(run, result.events, result.parent, result.ended === true);
    return true;
  }

  /**
   * A run whose lease expired (its worker died or stalled): a cancel request is honoured, a run with
   * claims left is re-queued (it resumes from its checkpoint), otherwise it fails with a reason.
   */
  async recoverExpired(runId: string): Promise<RunStatus | null> {
    const result = await this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[(EndedRow & { error: RunError | null })[], number]>(
        `UPDATE runs SET
            status = CASE WHEN status = 'cancel_requested' THEN 'cancelled'
                          WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END,
            error = CASE WHEN status <> 'cancel_requested' AND attempts >= $2 THEN $3::jsonb END,
            finished_at = CASE WHEN status = 'cancel_requested' OR attempts >= $2 THEN now() END,
            lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND status IN ('running', 'cancel_requested') AND lease_expires_at < now()
          RETURNING ${ENDED_COLUMNS}, error`,
        [runId, this.config.runtime.maxAttempts, JSON.stringify(workerLost(this.config.runtime.maxAttempts))],
      );
      const row = rows[0];
      if (row === undefined) return null;
      if (row.status === 'queued')
        return {
          row,
          events: await this.events.appendIn(manager, runId, [statusEvent('queued')]),
          parent: null,
        };
      const outcome = { status: row.status as RunOutcome['status'], error: row.error ?? undefined };
      const events = await this.events.appendIn(manager, runId, terminalEvents(outcome));
      return { row, events, parent: await tellParentIn(manager, this.events, runId, row) };
    });
    if (result === null) return null;
    const ended = result.row.status !== 'queued';
    await this.afterEnding(
      { id: runId, threadId: result.row.thread_id },
      result.events,
      result.parent,
      ended,
    );
    return result.row.status;
  }

  /**
   * Cancels on behalf of the owner: queued and waiting runs end at once, a running run gets
   * `cancel_requested` (its worker stops at the next safe point). Returns the status after the call,
   * or null when the run had already finished.
   */
  async cancel(runId: string): Promise<RunStatus | null> {
    // The run row is locked before the waiting points, as answering does.
    const result = await retryOnConflict(() => cancelRunIn(this.dataSource, this.events, runId));
    if (result === null) {
      const current = await this.statusOf(runId);
      return current === 'cancel_requested' ? 'cancel_requested' : null;
    }
    if (result.row.status === 'cancelled')
      await this.afterEnding(
        { id: runId, threadId: result.row.thread_id },
        result.events,
        result.parent,
        true,
      );
    else await this.events.publish(runId, result.events);
    return result.row.status;
  }

  /**
   * The active children of a run that ended or is being cancelled are cancelled, and theirs: a queued
   * or waiting child at once, a running one asked to stop (signalled to its worker).
   */
  async cancelActiveChildren(parentRunId: string): Promise<void> {
    const children = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE parent_run_id = $1 AND status IN ${ACTIVE_LIST}`,
      [parentRunId],
    );
    for (const child of children) {
      // A child that ends here cancels its own children (`afterEnding`).
      if ((await this.cancel(child.id)) !== 'cancel_requested') continue;
      await this.signals.request(child.id);
      await this.cancelActiveChildren(child.id);
    }
  }

  private async statusOf(runId: string): Promise<RunStatus | undefined> {
    const [row] = await this.dataSource.query<{ status: RunStatus }[]>(
      `SELECT status FROM runs WHERE id = $1`,
      [runId],
    );
    return row?.status;
  }

  /**
   * After the commit of a run leaving its thread: its events are published and the thread's next run
   * enqueued; when it ended, its parent hears of it (and may go on) and its active children are cancelled.
   */
  private async afterEnding(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    events: RunEvent[],
    parent: ParentNotice | null,
    ended: boolean,
  ): Promise<void> {
    await this.events.publish(run.id, events);
    if (parent !== null) {
      await this.events.publish(parent.runId, parent.events);
      if (parent.queued !== null) await this.dispatcher.dispatch(parent.queued);
    }
    await this.dispatcher.dispatchHead(run.threadId);
    if (ended) await this.cancelActiveChildren(run.id);
  }
}
