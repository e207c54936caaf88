import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { currentRequestId } from '../../../common/request-id/request-context.js';
import { activeTraceparent } from '../../../observability/tracing/index.js';
import { canonicalDigest } from '../../../common/crypto/canonical-digest.js';
import { CommonErrors } from '../../../common/errors/index.js';
import { retryOnConflict } from '../../../database/transient-conflict.js';
import { RunTransitions, type ExecutedRun, type ParkResult } from '../runs/run-transitions.js';
import { RunsErrors } from '../runs/runs.errors.js';
import type { ApprovalAnswer, ApprovalInterrupt } from '../approvals/approval-interrupt.js';
import type { NewRunEvent } from '../events/run-event.js';
import type { QuestionInterrupt } from '../worker/session/question-interrupt.js';
import { LeaseLostError } from '../runs/runs.errors.js';
import {
  WaitingPointEntity,
  type Answers,
  type Decisions,
  type WaitingPointKind,
} from './waiting-point.entity.js';

/** What a run's graph stopped at for the user: questions, or calls to decide. */
export type WaitingInterrupt = QuestionInterrupt | ApprovalInterrupt;

/** What an answered point resumes its run with: the answers, or the decisions and who made them. */
export type ResumeValue = Answers | ApprovalAnswer;

/** What one answer writes: the point's answers or decisions, and what else goes in its transaction. */
export interface PointAnswer {
  kind: WaitingPointKind;
  value: Answers | Decisions;
  /** More writes in the answer's transaction (thread-wide approvals). */
  alsoIn?: (manager: EntityManager) => Promise<void>;
}

export type { ParkResult };

/** An open waiting point as the upgrade command lists it (`npm run waiting-points -- list`). */
export interface OpenWaitingPoint {
  waiting_point_id: string;
  run_id: string;
  thread_id: string;
  user_id: string;
  kind: WaitingPointKind;
  questions: number;
  approvals: number;
  created_at: Date;
}

/**
 * Waiting points: written when a run's graph stopped at `ask_user_question` or at calls its approval
 * policy asks about (after the interrupt, in the lease holder's transaction), answered once by the
 * owner (which queues the same run again).
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
  park(run: ExecutedRun, leaseToken: string, waiting: WaitingInterrupt): Promise<ParkResult> {
    const approval = 'kind' in waiting ? waiting : null;
    const questions = 'kind' in waiting ? [] : waiting.questions;
    return this.transitions.parkForQuestion(run, leaseToken, async (manager): Promise<NewRunEvent[]> => {
      const [point] = await manager.query<{ id: string }[]>(
        `INSERT INTO waiting_points (run_id, thread_id, tool_call_id, kind, questions, approvals, status)
         VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, 'open')
         ON CONFLICT (run_id, tool_call_id) DO UPDATE SET status = 'open', kind = $4, questions = $5::jsonb,
                approvals = $6::jsonb, answers = NULL, decisions = NULL, started_calls = '[]'::jsonb,
                answered_at = NULL
         RETURNING id`,
        [
          run.id,
          run.threadId,
          waiting.tool_call_id,
          approval === null ? 'questions' : 'approval',
          JSON.stringify(questions),
          approval === null ? null : JSON.stringify(approval.approvals),
        ],
      );
      const payload =
        approval === null
          ? { questions }
          : { approvals: approval.approvals.map(({ args_schema: _, ...shown }) => shown) };
      return [
        {
          type: 'waiting',
          payload: {
            waiting_point_id: point.id,
            kind: approval === null ? 'questions' : 'approval',
            tool_call_id: waiting.tool_call_id,
            ...payload,
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
      `SELECT w.id AS waiting_point_id, w.run_id, w.thread_id, r.user_id, w.kind,
              jsonb_array_length(w.questions)::int AS questions,
              COALESCE(jsonb_array_length(w.approvals), 0)::int AS approvals, w.created_at
         FROM waiting_points w JOIN runs r ON r.id = w.run_id
        WHERE w.status = 'open' ORDER BY w.created_at`,
    );
  }

  /** What a resumed run continues with (the interrupted call's waiting point): answers or decisions. */
  async answersFor(runId: string, toolCallId: string): Promise<ResumeValue | null> {
    const point = await this.dataSource
      .getRepository(WaitingPointEntity)
      .findOneBy({ runId, toolCallId, status: 'answered' });
    if (point === null) return null;
    if (point.kind === 'approval')
      return point.decisions === null || point.answeredBy === null
        ? null
        : { decisions: point.decisions, decided_by: point.answeredBy };
    return point.answers;
  }

  /** The decided calls of an approval point that started running (see `markStarted`). */
  async startedCalls(runId: string, pointToolCallId: string): Promise<ReadonlySet<string>> {
    const [row] = await this.dataSource.query<{ started_calls: string[] }[]>(
      `SELECT started_calls FROM waiting_points WHERE run_id = $1 AND tool_call_id = $2`,
      [runId, pointToolCallId],
    );
    return new Set(row?.started_calls ?? []);
  }

  /**
   * Records, under the run's lease, that a decided call starts now: an attempt that finds it started
   * without its result never runs it again. Throws `LeaseLostError` when the lease is gone.
   */
  async markStarted(runId: string, pointToolCallId: string, toolCallId: string, leaseToken: string) {
    const rows = await this.dataSource.query<{ id: string }[]>(
      `UPDATE waiting_points SET started_calls = started_calls || to_jsonb($3::text)
        WHERE run_id = $1 AND tool_call_id = $2
          AND EXISTS (SELECT 1 FROM runs WHERE id = $1 AND lease_token = $4)
        RETURNING id`,
      [runId, pointToolCallId, toolCallId, leaseToken],
    );
    if (rows.length === 0) throw new LeaseLostError(runId);
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
    answer: PointAnswer,
    answeredBy: string,
    requestId: string | null,
  ): Promise<WaitingPointEntity> {
    const digest = canonicalDigest(answer.value);
    const column = answer.kind === 'approval' ? 'decisions' : 'answers';
    const result = await retryOnConflict(() =>
      this.dataSource.transaction(async (manager) => {
        const [run] = await manager.query<
          {
            status: string;
            attempts: number;
            origin_request_id: string | null;
            origin_traceparent: string | null;
          }[]
        >(
          `SELECT status, attempts, origin_request_id, origin_traceparent FROM runs WHERE id = $1 FOR UPDATE`,
          [point.runId],
        );
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
          originTraceparent: run.origin_traceparent,
          // The resumed execution joins the answering request's trace.
          resumeTraceparent: activeTraceparent(),
        });
        await manager.query(
          `UPDATE waiting_points SET status = 'answered', ${column} = $2::jsonb, answered_by = $3,
                  answered_at = now(), answer_request_id = $4, answers_digest = $5
            WHERE id = $1`,
          [point.id, JSON.stringify(answer.value), answeredBy, requestId, digest],
        );
        await answer.alsoIn?.(manager);
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
