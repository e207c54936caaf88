import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity.js';
import { AppConfig } from '../../../config/app-config.js';
import { doneEvent, RunEvents, statusEvent } from '../events/run-events.js';
import type { NewRunEvent, RunEvent } from '../events/run-event.js';
import { RunDispatcher } from '../queue/run-dispatcher.js';
import { retryOnConflict } from '../../../database/transient-conflict.js';
import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';
import { RunFailureCodes } from './runs.errors.js';
import type { RunStatus } from './run-status.js';
import { RunEntity, type RunError, type TokenUsage } from './run.entity.js';
import { R_IS_QUEUED_HEAD } from './thread-queue.js';

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

export interface RunOutcome {
  status: 'completed' | 'failed' | 'cancelled';
  error?: RunError;
}

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
  ) {}

  private get leaseSeconds(): number {
    return this.config.runtime.runLeaseSeconds;
  }

  /**
   * Inserts a new run, `queued`, with its first event, inside the creation's transaction (which holds
   * the thread's lock). Publish the events after the commit.
   */
  async createIn(manager: EntityManager, row: NewRunRow): Promise<{ run: RunEntity; events: RunEvent[] }> {
    const runs = manager.getRepository(RunEntity);
    const run = runs.create({ ...row, status: 'queued' });
    // jsonb columns defeat TypeORM's deep-partial typing; the entity is complete. `created_at` orders
    // the thread's queue, so it is the time the run took the thread (now), not when the transaction began.
    await runs.insert({ ...run, createdAt: () => 'clock_timestamp()' } as QueryDeepPartialEntity<RunEntity>);
    const events = await this.events.appendIn(manager, run.id, [statusEvent('queued')]);
    return { run: await runs.findOneByOrFail({ id: run.id }), events };
  }

  /** Takes the run under a new lease if it is queued and holds its thread (FIFO). */
  async claim(runId: string, leaseToken: string): Promise<ClaimResult> {
    const { run, events } = await this.dataSource.transaction(async (manager) => {
      const rows = await manager.query<[unknown[], number]>(
        `UPDATE runs r SET status = 'running', lease_token = $2,
                lease_expires_at = now() + make_interval(secs => $3), attempts = attempts + 1,
                started_at = coalesce(started_at, now())
          WHERE r.id = $1 AND ${R_IS_QUEUED_HEAD}
          RETURNING r.id`,
        [runId, leaseToken, this.leaseSeconds],
      );
      if (rows[1] === 0) return { run: null, events: [] };
      return {
        run: await manager.getRepository(RunEntity).findOneByOrFail({ id: runId }),
        events: await this.events.appendIn(manager, runId, [statusEvent('running')]),
      };
    });
    if (run !== null) {
      await this.events.publish(runId, events);
      return { kind: 'claimed', run };
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

  async addUsage(runId: string, leaseToken: string, usage: TokenUsage): Promise<void> {
    await this.dataSource.query(
      `UPDATE runs SET token_usage = jsonb_build_object(
          'input_tokens', coalesce((token_usage->>'input_tokens')::int, 0) + $3,
          'output_tokens', coalesce((token_usage->>'output_tokens')::int, 0) + $4,
          'total_tokens', coalesce((token_usage->>'total_tokens')::int, 0) + $5)
        WHERE id = $1 AND lease_token = $2`,
      [runId, leaseToken, usage.input_tokens, usage.output_tokens, usage.total_tokens],
    );
  }

  /** The lease holder ends the run. False when the lease was lost (nothing written). */
  async finish(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    leaseToken: string,
    outcome: RunOutcome,
  ): Promise<boolean> {
    const events = await this.dataSource.transaction(async (manager) => {
      const [, affected] = await manager.query<[unknown, number]>(
        `UPDATE runs SET status = $3, error = $4, finished_at = now(), lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')`,
        [
          run.id,
          leaseToken,
          outcome.status,
          outcome.error === undefined ? null : JSON.stringify(outcome.error),
        ],
      );
      if (affected === 0) return null;
      return this.events.appendIn(manager, run.id, terminalEvents(outcome));
    });
    if (events === null) return false;
    await this.afterLeavingThread(run, events);
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
    const events = await this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[{ status: RunStatus }[], number]>(
        `UPDATE runs SET status = CASE WHEN status = 'cancel_requested' THEN 'cancelled' ELSE 'queued' END,
                finished_at = CASE WHEN status = 'cancel_requested' THEN now() END,
                lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND lease_token = $2 AND status IN ('running', 'cancel_requested')
          RETURNING status`,
        [run.id, leaseToken],
      );
      const status = rows[0]?.status;
      if (status === undefined) return null;
      return this.events.appendIn(
        manager,
        run.id,
        status === 'cancelled' ? terminalEvents({ status }) : [statusEvent(status)],
      );
    });
    if (events === null) return false;
    await this.afterLeavingThread(run, events);
    return true;
  }

  /**
   * A run whose lease expired (its worker died or stalled): a cancel request is honoured, a run with
   * claims left is re-queued (it resumes from its checkpoint), otherwise it fails with a reason.
   */
  async recoverExpired(runId: string): Promise<RunStatus | null> {
    const result = await this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<
        [{ status: RunStatus; thread_id: string; error: RunError | null }[], number]
      >(
        `UPDATE runs SET
            status = CASE WHEN status = 'cancel_requested' THEN 'cancelled'
                          WHEN attempts >= $2 THEN 'failed' ELSE 'queued' END,
            error = CASE WHEN status <> 'cancel_requested' AND attempts >= $2 THEN $3::jsonb END,
            finished_at = CASE WHEN status = 'cancel_requested' OR attempts >= $2 THEN now() END,
            lease_token = NULL, lease_expires_at = NULL
          WHERE id = $1 AND status IN ('running', 'cancel_requested') AND lease_expires_at < now()
          RETURNING status, thread_id, error`,
        [runId, this.config.runtime.maxAttempts, JSON.stringify(workerLost(this.config.runtime.maxAttempts))],
      );
      const row = rows[0];
      if (row === undefined) return null;
      const events =
        row.status === 'queued'
          ? [statusEvent('queued')]
          : terminalEvents({ status: row.status as RunOutcome['status'], error: row.error ?? undefined });
      return { row, events: await this.events.appendIn(manager, runId, events) };
    });
    if (result === null) return null;
    await this.afterLeavingThread({ id: runId, threadId: result.row.thread_id }, result.events);
    return result.row.status;
  }

  /**
   * Cancels on behalf of the owner: queued and waiting runs end at once, a running run gets
   * `cancel_requested` (its worker stops at the next safe point). Returns the status after the call,
   * or null when the run had already finished.
   */
  async cancel(runId: string): Promise<RunStatus | null> {
    // The run row is locked before the waiting points, as answering does.
    const result = await retryOnConflict(() => this.cancelIn(runId));
    if (result === null) {
      const current = await this.statusOf(runId);
      return current === 'cancel_requested' ? 'cancel_requested' : null;
    }
    if (result.row.status === 'cancelled')
      await this.afterLeavingThread({ id: runId, threadId: result.row.thread_id }, result.events);
    else await this.events.publish(runId, result.events);
    return result.row.status;
  }

  private cancelIn(runId: string) {
    return this.dataSource.transaction(async (manager) => {
      const [rows] = await manager.query<[{ status: RunStatus; thread_id: string }[], number]>(
        `UPDATE runs SET
            status = CASE WHEN status IN ('queued', 'waiting') THEN 'cancelled' ELSE 'cancel_requested' END,
            finished_at = CASE WHEN status IN ('queued', 'waiting') THEN now() END
          WHERE id = $1 AND status IN ('queued', 'waiting', 'running')
          RETURNING status, thread_id`,
        [runId],
      );
      const row = rows[0];
      if (row === undefined) return null;
      // A waiting run's question is withdrawn with it.
      await manager.query(
        `UPDATE waiting_points SET status = 'cancelled', cancelled_at = now() WHERE run_id = $1 AND status = 'open'`,
        [runId],
      );
      const events =
        row.status === 'cancelled' ? terminalEvents({ status: 'cancelled' }) : [statusEvent(row.status)];
      return { row, events: await this.events.appendIn(manager, runId, events) };
    });
  }

  private async statusOf(runId: string): Promise<RunStatus | undefined> {
    const [row] = await this.dataSource.query<{ status: RunStatus }[]>(
      `SELECT status FROM runs WHERE id = $1`,
      [runId],
    );
    return row?.status;
  }

  private async afterLeavingThread(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    events: RunEvent[],
  ): Promise<void> {
    await this.events.publish(run.id, events);
    await this.dispatcher.dispatchHead(run.threadId);
  }
}

function terminalEvents(outcome: RunOutcome): NewRunEvent[] {
  const events: NewRunEvent[] = [];
  if (outcome.error !== undefined)
    events.push({ type: 'error', payload: { code: outcome.error.code, message: outcome.error.message } });
  events.push(statusEvent(outcome.status), doneEvent(outcome.status));
  return events;
}

function workerLost(maxAttempts: number): RunError {
  return {
    code: RunFailureCodes.workerLost,
    message: `The worker executing the run stopped responding (${maxAttempts} attempts).`,
  };
}
