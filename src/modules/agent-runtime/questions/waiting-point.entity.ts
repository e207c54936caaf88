import {
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryGeneratedColumn,
} from 'typeorm';
import { RunEntity } from '../runs/run.entity.js';
import type { PointApproval, SubmittedDecision } from '../approvals/approval-interrupt.js';
import type { NormalizedQuestion } from './question-schema.js';
import type { PointQuestion } from './turn-questions.js';

export type WaitingPointStatus = 'open' | 'answered' | 'cancelled';

/** What a waiting point waits for (`kind` in its events and reads): answers to questions, or decisions. */
export const WAITING_POINT_KINDS = ['questions', 'approval'] as const;
export type WaitingPointKind = (typeof WAITING_POINT_KINDS)[number];
export type Answers = Record<string, string | string[]>;
export type Decisions = Record<string, SubmittedDecision>;

/**
 * A run waiting for the user: answers to `ask_user_question`, or decisions on tool calls its approval
 * policy asks about. Projected from the graph's interrupt.
 */
@Entity({ name: 'waiting_points' })
@Index('waiting_points_run_call_key', ['runId', 'toolCallId'], { unique: true })
@Index('waiting_points_status_idx', ['status'])
export class WaitingPointEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: RunEntity;

  @Column({ type: 'uuid' })
  threadId: string;

  @Column({ type: 'text' })
  toolCallId: string;

  @Column({ type: 'varchar', length: 16, default: 'questions' })
  kind: WaitingPointKind;

  @Column({ type: 'jsonb' })
  /** `tool_call_id` is absent on points written before one point carried a whole turn. */
  questions: (NormalizedQuestion | PointQuestion)[];

  @Column({ type: 'varchar', length: 16 })
  status: WaitingPointStatus;

  @Column({ type: 'jsonb', nullable: true })
  answers: Answers | null;

  /** For `approval`: the calls waiting for a decision. */
  @Column({ type: 'jsonb', nullable: true })
  approvals: PointApproval[] | null;

  /** For `approval`: the person's decisions, by tool_call_id. */
  @Column({ type: 'jsonb', nullable: true })
  decisions: Decisions | null;

  /** For `approval`: the decided calls that started running (each runs at most once). */
  @Column({ type: 'jsonb', default: () => "'[]'::jsonb" })
  startedCalls: string[];

  @Column({ type: 'uuid', nullable: true })
  answeredBy: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  answerRequestId: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  answersDigest: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  answeredAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  cancelledAt: Date | null;
}
