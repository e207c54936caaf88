import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { preparedFindOneBy } from '../../../database/prepared-find.js';
import { DataSource, In, IsNull, Not, Repository, type EntityManager } from 'typeorm';
import { ACTIVE_STATUSES, WORKER_BOUND_STATUSES, type RunStatus } from './run-status.js';
import { RunEntity } from './run.entity.js';
import { ACTIVE_LIST, O_AHEAD_OF_R, R_IS_QUEUED_HEAD, THREAD_QUEUE_ORDER } from './thread-queue.js';
import { inFlightOf } from './user-run-slots.js';

/**
 * A queued run, how many times it was claimed (which names its next job), and the requests (and trace
 * contexts) behind it.
 */
export interface QueuedRun {
  id: string;
  attempts: number;
  originRequestId: string | null;
  resumeRequestId: string | null;
  originTraceparent: string | null;
  resumeTraceparent: string | null;
}

/** `QueuedRun`'s columns of run `r`. */
const QUEUED_COLUMNS = `r.id, r.attempts, r.origin_request_id AS "originRequestId", r.resume_request_id AS "resumeRequestId",
       r.origin_traceparent AS "originTraceparent", r.resume_traceparent AS "resumeTraceparent"`;

/** Reads of runs; every write is `RunStore`'s. */
@Injectable()
export class RunsRepository {
  constructor(
    @InjectRepository(RunEntity) private readonly rows: Repository<RunEntity>,
    private readonly dataSource: DataSource,
  ) {}

  findById(id: string): Promise<RunEntity | null> {
    return preparedFindOneBy(this.rows, { id });
  }

  /** The run if it belongs to `userId`; another user's run is indistinguishable from none. */
  findOwned(userId: string, id: string): Promise<RunEntity | null> {
    return preparedFindOneBy(this.rows, { id, userId });
  }

  /** Whether `userId` owns the run (one indexed lookup, no row loaded). */
  async isOwned(userId: string, id: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(`SELECT 1 FROM runs WHERE id = $1 AND user_id = $2`, [
      id,
      userId,
    ]);
    return rows.length > 0;
  }

  /** The run's status alone, or null when there is no such run. */
  async statusOf(id: string): Promise<RunStatus | null> {
    const [row] = await this.dataSource.query<{ status: RunStatus }[]>(
      `SELECT status FROM runs WHERE id = $1`,
      [id],
    );
    return row?.status ?? null;
  }

  findByRequest(userId: string, requestId: string): Promise<RunEntity | null> {
    return this.rows.findOneBy({ userId, requestId });
  }

  /** The ids of the parent run's active children. */
  async activeChildren(parentRunId: string): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE parent_run_id = $1 AND status IN ${ACTIVE_LIST}`,
      [parentRunId],
    );
    return rows.map((row) => row.id);
  }

  /** How many children of the parent run are active. */
  async countActiveChildren(parentRunId: string): Promise<number> {
    const [{ count }] = await this.dataSource.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM runs WHERE parent_run_id = $1 AND status = ANY($2)`,
      [parentRunId, ACTIVE_STATUSES],
    );
    return count;
  }

  /**
   * Inside a run creation's transaction: takes the user's run-creation lock (held to the commit, so two
   * creations of one user cannot both pass the cap) and counts the user's runs that hold or want a worker.
   */
  async lockAndCountWorkerBoundIn(manager: EntityManager, userId: string): Promise<number> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`runs:user:${userId}`]);
    const [{ count }] = await manager.query<[{ count: number }]>(
      `SELECT count(*)::int AS count FROM runs WHERE user_id = $1 AND status = ANY($2)`,
      [userId, WORKER_BOUND_STATUSES],
    );
    return count;
  }

  /** The thread's active runs, oldest first (the first one holds the thread). */
  /** The model the thread's latest executed run used (its snapshot), or null before any. */
  /** The thread's latest run that got as far as its snapshot: its id and the model it ran with. */
  async latestModelRunOfThread(threadId: string): Promise<{ runId: string; model: string } | null> {
    const run = await this.dataSource.getRepository(RunEntity).findOne({
      where: { threadId, configSnapshot: Not(IsNull()) },
      order: { createdAt: 'DESC', id: 'DESC' },
      select: { id: true, configSnapshot: true },
    });
    const model = run?.configSnapshot?.model;
    return run === null || model === undefined ? null : { runId: run.id, model };
  }

  activeInThread(threadId: string, manager: EntityManager = this.dataSource.manager): Promise<RunEntity[]> {
    return manager.getRepository(RunEntity).find({
      where: { threadId, status: In([...ACTIVE_STATUSES]) },
      order: THREAD_QUEUE_ORDER,
    });
  }

  /** How many active runs of the thread are ahead of this one (0 = it holds the thread). */
  async queuePosition(run: RunEntity): Promise<number> {
    const [{ count }] = await this.dataSource.query<[{ count: number }]>(
      `SELECT count(o.id)::int AS count FROM runs r JOIN runs o ON ${O_AHEAD_OF_R} WHERE r.id = $1`,
      [run.id],
    );
    return count;
  }

  /** The queued run at the head of the thread, if the head is queued. */
  async queuedHead(
    threadId: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<QueuedRun | null> {
    const [head] = await manager.query<QueuedRun[]>(
      `SELECT ${QUEUED_COLUMNS} FROM runs r WHERE r.thread_id = $1 AND ${R_IS_QUEUED_HEAD}`,
      [threadId],
    );
    return head ?? null;
  }

  /**
   * Queued runs at the head of their thread, created before `olderThanSeconds` ago, whose user has fewer
   * than `maxInFlight` runs in flight (a held run waits for its user's slot, `user-run-slots.ts`).
   */
  async queuedHeads(olderThanSeconds: number, limit: number, maxInFlight: number): Promise<QueuedRun[]> {
    return this.dataSource.query<QueuedRun[]>(
      `SELECT ${QUEUED_COLUMNS} FROM runs r
        WHERE ${R_IS_QUEUED_HEAD} AND r.created_at < now() - make_interval(secs => $1)
          AND ${inFlightOf('r.user_id')} < $3
        ORDER BY r.created_at LIMIT $2`,
      [olderThanSeconds, limit, maxInFlight],
    );
  }

  /** Runs held under a lease that has expired (with the request that created each, for the log). */
  expiredLeases(limit: number): Promise<{ id: string; originRequestId: string | null }[]> {
    return this.dataSource.query<{ id: string; originRequestId: string | null }[]>(
      `SELECT id, origin_request_id AS "originRequestId" FROM runs
        WHERE status IN ('running', 'cancel_requested') AND lease_expires_at < now()
        ORDER BY lease_expires_at LIMIT $1`,
      [limit],
    );
  }

  countInThread(threadId: string): Promise<number> {
    return this.rows.countBy({ threadId });
  }

  /** Runs parked in `subagent_await` past their deadline (their wake-up job may have been lost). */
  async overdueAwaits(limit: number): Promise<string[]> {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE status = 'waiting' AND awaiting_until < now() ORDER BY awaiting_until LIMIT $1`,
      [limit],
    );
    return rows.map((row) => row.id);
  }

  /** Whether any of these runs is still active (what a parent parked in `subagent_await` waits for). */
  async anyActive(ids: string[]): Promise<boolean> {
    const [row] = await this.dataSource.query<{ active: boolean }[]>(
      `SELECT EXISTS (SELECT 1 FROM runs WHERE id = ANY($1::uuid[]) AND status IN ${ACTIVE_LIST}) AS active`,
      [ids],
    );
    return row.active;
  }

  /** A child run as its parent may see it: only a run `parentRunId` created (null otherwise). */
  findChild(parentRunId: string, id: string): Promise<RunEntity | null> {
    return this.rows.findOneBy({ id, parentRunId });
  }
}
