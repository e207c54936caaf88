import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * A lead for later review, saved by the `mark_for_improvement` tool during a run: what went wrong or
 * what worked, in the agent's words. Nothing is verified or changed by it (no skill, no file read).
 *
 * `run_id` is a plain column, not a foreign key: a mark outlives its run (failed, cancelled, or deleted
 * with its thread) and goes only by age (`IMPROVEMENT_MARKS_RETENTION_DAYS`).
 */
@Entity({ name: 'improvement_marks' })
@Index('improvement_marks_run_tool_call_key', ['runId', 'toolCallId'], { unique: true })
@Index('improvement_marks_created_idx', ['createdAt'])
@Index('improvement_marks_user_created_idx', ['userId', 'createdAt'])
@Index('improvement_marks_agent_created_idx', ['agentSlug', 'createdAt'])
export class ImprovementMarkEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  runId: string;

  /** The model's tool_call_id: with `run_id`, the idempotency key of the write. */
  @Column({ type: 'text' })
  toolCallId: string;

  @Column({ type: 'varchar', length: 64 })
  agentSlug: string;

  /** The run's user: a normal user sees only the marks of their own runs. */
  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid' })
  threadId: string;

  /** Trimmed, 1-4000 characters. */
  @Column({ type: 'text' })
  reason: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
