import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { currentRequestId } from '../../../common/request-id/request-context.js';
import { canonicalDigest } from '../../../common/crypto/canonical-digest.js';
import { CommonErrors } from '../../../common/errors/index.js';
import { retryOnConflict } from '../../../database/transient-conflict.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunTransitions, type ParkResult } from '../runs/run-transitions.js';
import { RunsErrors } from '../runs/runs.errors.js';
import type { PointQuestion } from './turn-questions.js';
import { WAITING_POINT_KIND, WaitingPointEntity, type Answers } from './waiting-point.entity.js';

export type { ParkResult };

/** An open waiting point as the upgrade command lists it (`npm run waiting-points -- list`). */
export interface OpenWaitingPoint {
  waiting_point_id: string;
  run_id: string;
  thread_id: string;
  user_id: string;
  questions: number;
  created_at: Date;
}

/**
 * Waiting points: written when a run's graph stopped at `ask_user_question` (after the interrupt, in
 * the lease holder's transaction), answered once by the owner (which queues the same run again).
 */
@Injectable()
export class WaitingPoints {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transitions: RunTransitions,
  ) {}

  /**
   * The run becomes `waiting` (`RunTransitions.parkForQuestion`) with an open waiting point. `not_running` when
   * the lease is gone or a cancel was requested meanwhile (no waiting point written).
   */
  park(
    run: Pick<RunEntity, 'id' | 'threadId'>,
    leaseToken: string,
    toolCallId: string,
    questions: PointQuestion[],
  ): Promise<ParkResult> {
    return this.transitions.parkForQuestion(run, leaseToken, async (manager) => {
      const [point] = await manager.query<{ id: string }[]>(
        `INSERT INTO waiting_points (run_id, thread_id, tool_call_id, questions, status)
         VALUES ($1, $2, $3, $4::jsonb, 'open')
         ON CONFLICT (run_id, tool_call_id) DO UPDATE SET status = 'open', answers = NULL, answered_at = NULL
         RETURNING id`,
        [run.id, run.threadId, toolCallId, JSON.stringify(questions)],
      );
      return [
        {
          type: 'waiting',
          payload: {
            waiting_point_id: point.id,
            kind: WAITING_POINT_KIND,
            tool_call_id: toolCallId,
            questions,
          },
        },
      ];
    });
  }

  /** The run's latest waiting point, if it ever waited. */
  latest(runId: string): Promise<WaitingPointEntity | null> {
    return this.dataSource
      .getRepository(WaitingPointEntity)
      .findOne({ where: { runId }, order: { createdAt: 'DESC' } });
  }

  /** The open waiting point of a run (what a thread's state shows). */
  open(runId: string): Promise<WaitingPointEntity | null> {
    return this.dataSource.getRepository(WaitingPointEntity).findOneBy({ runId, status: 'open' });
  }

  /** Every open waiting point, oldest first, with its run's user. */
  listOpen(): Promise<OpenWaitingPoint[]> {
    return this.dataSource.query<OpenWaitingPoint[]>(
      `SELECT w.id AS waiting_point_id, w.run_id, w.thread_id, r.user_id,
              jsonb_array_length(w.questions)::int AS questions, w.created_at
         FROM waiting_points w JOIN runs r ON r.id = w.run_id
        WHERE w.status = 'open' ORDER BY w.created_at`,
    );
  }

  /** The answers a resumed run continues with (the interrupted call's waiting point). */
  async answersFor(runId: string, toolCallId: string): Promise<Answers | null> {
    const point = await this.dataSource
      .getRepository(WaitingPointEntity)
      .findOneBy({ runId, toolCallId, status: 'answered' });
    return point?.answers ?? null;
  }

  /**
   * Accepts the answers of an open waiting point (validated by the caller) exactly once: the run row
   * and then the point are locked (the order cancel and park take them in), the point marked answered,
   * the run queued again, in one transaction; then the run is enqueued. After that, a replay under the
   * same `request_id` with the same answers returns the accepted point, other answers under it are
   * `common.request_id_conflict`, anything else `runs.already_answered`.
   */
  async answer(
    point: WaitingPointEntity,
    answers: Answers,
    answeredBy: string,
    requestId: string | null,
  ): Promise<WaitingPointEntity> {
    const digest = canonicalDigest(answers);
    const result = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const [run] = await manager.query<
          { status: string; attempts: number; origin_request_id: string | null }[]
        >(`SELECT status, attempts, origin_request_id FROM runs WHERE id = $1 FOR UPDATE`, [point.runId]);
        const [current] = await manager.query<AnswerState[]>(
          `SELECT status, answers_digest, answer_request_id FROM waiting_points WHERE id = $1 FOR UPDATE`,
          [point.id],
        );
        if (current.status === 'answered') {
          if (requestId === null || current.answer_request_id !== requestId)
            throw RunsErrors.alreadyAnswered();
          if (current.answers_digest !== digest) throw CommonErrors.requestIdConflict(requestId);
          return { replay: true as const };
        }
        if (current.status !== 'open' || run?.status !== 'waiting') throw RunsErrors.notWaiting();
        const { afterCommit } = await this.transitions.requeueAnsweredIn(manager, {
          id: point.runId,
          attempts: run.attempts,
          originRequestId: run.origin_request_id,
          resumeRequestId: currentRequestId(),
        });
        await manager.query(
          `UPDATE waiting_points SET status = 'answered', answers = $2::jsonb, answered_by = $3, answered_at = now(),
                  answer_request_id = $4, answers_digest = $5
            WHERE id = $1`,
          [point.id, JSON.stringify(answers), answeredBy, requestId, digest],
        );
        return { replay: false as const, afterCommit };
      }),
    );
    if (!result.replay) await result.afterCommit();
    return this.dataSource.getRepository(WaitingPointEntity).findOneByOrFail({ id: point.id });
  }
}

interface AnswerState {
  status: string;
  answers_digest: string | null;
  answer_request_id: string | null;
}
