import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';
import type { RunConfigSnapshot } from '../assembly/run-config-snapshot.js';
import type { RunStatus } from './run-status.js';

export interface RunError {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** A run's token usage: the sum of its agent's model calls (`model_usage`, purpose `agent`). */
export interface TokenUsage {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  cached_tokens: number;
}

/**
 * One turn of a thread: the user's input, executed by a worker under an execution lease. PostgreSQL is
 * the truth about a run; its BullMQ job (id = run id) only wakes a worker.
 */
@Entity({ name: 'runs' })
@Index('runs_thread_created_idx', ['threadId', 'createdAt'])
@Index('runs_user_request_key', ['userId', 'requestId'], { unique: true })
@Index('runs_status_idx', ['status'])
@Index('runs_parent_idx', ['parentRunId'])
@Index('runs_user_in_flight_idx', ['userId'], { where: `status IN ('running', 'cancel_requested')` })
@Index('runs_user_held_idx', ['userId', 'createdAt'], { where: `status = 'queued' AND held_at IS NOT NULL` })
export class RunEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('threads', { onDelete: 'CASCADE' })
  threadId: string;

  @Column({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string;

  @Column({ type: 'varchar', length: 64 })
  agentSlug: string;

  /** The thread's agent when the run was created (no foreign key: kept as history); null if gone. */
  @Column({ type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ type: 'varchar', length: 20 })
  status: RunStatus;

  @Column({ type: 'text' })
  input: string;

  /** Model asked for by the caller; the agent's model otherwise. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  model: string | null;

  /** The subagent run's parent (cancelling the parent cancels it). */
  @Column({ type: 'uuid', nullable: true })
  parentRunId: string | null;

  /** While parked in `subagent_await` (`waiting`, no waiting point): the child runs it waits for. */
  @Column({ type: 'uuid', array: true, nullable: true })
  awaitedRunIds: string[] | null;

  /** While parked in `subagent_await`: when it is queued again even if a child is still active. */
  @Column({ type: 'timestamptz', nullable: true })
  awaitingUntil: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  payloadDigest: string | null;

  /** The X-Request-Id of the HTTP request that created the run (`request_id` on its worker log lines). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  originRequestId: string | null;

  /** The X-Request-Id of the answer that last resumed the run (`resume_request_id` on its log lines). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  resumeRequestId: string | null;

  /** The W3C `traceparent` active where the run was created (null with tracing off): its jobs carry it. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  originTraceparent: string | null;

  /** The `traceparent` of the answer that last resumed the run: the jobs after it carry this one. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  resumeTraceparent: string | null;

  /** The agent selection intersected with what the user may use, frozen when the run is first claimed. */
  @Column({ type: 'jsonb', nullable: true })
  configSnapshot: RunConfigSnapshot | null;

  @Column({ type: 'uuid', nullable: true })
  leaseToken: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseExpiresAt: Date | null;

  /** Claims so far (a re-queue after a lost worker claims again). */
  @Column({ type: 'int', default: 0 })
  attempts: number;

  /** The last event sequence number handed out (events are numbered from 1 without gaps). */
  @Column({ type: 'int', default: 0 })
  lastEventSeq: number;

  @Column({ type: 'jsonb', nullable: true })
  error: RunError | null;

  /**
   * What runs counted before `model_usage` existed ({input_tokens, output_tokens, total_tokens}); no
   * longer written. Its migration copied it into `model_usage`, which `token_usage` is read from.
   */
  @Column({ type: 'jsonb', nullable: true })
  tokenUsage: Omit<TokenUsage, 'cached_tokens'> | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @Column({ type: 'timestamptz', nullable: true })
  startedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  /** When a claim found its user at the in-flight cap (`user-run-slots.ts`); cleared when it is let go. */
  @Column({ type: 'timestamptz', nullable: true })
  heldAt: Date | null;
}
