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
import type { NormalizedQuestion } from './question-schema.js';
import type { PointQuestion } from './turn-questions.js';

export type WaitingPointStatus = 'open' | 'answered' | 'cancelled';

/** What a waiting point waits for (`kind` in its events and reads): every point holds questions. */
export const WAITING_POINT_KIND = 'questions';
export type WaitingPointKind = typeof WAITING_POINT_KIND;
export type Answers = Record<string, string | string[]>;

/** A run waiting for the user's answers to `ask_user_question`: projected from the graph's interrupt. */
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

  @Column({ type: 'jsonb' })
  /** `tool_call_id` is absent on points written before one point carried a whole turn. */
  questions: (NormalizedQuestion | PointQuestion)[];

  @Column({ type: 'varchar', length: 16 })
  status: WaitingPointStatus;

  @Column({ type: 'jsonb', nullable: true })
  answers: Answers | null;

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
