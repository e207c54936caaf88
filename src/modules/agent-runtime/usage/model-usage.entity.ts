import { Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';
import type { ModelUsagePurpose } from './model-call-usage.js';

/**
 * One model call's token usage, written in the statement that records its reply (`run-sql.ts`); its id
 * is the reply's message id, so a reply recorded again adds no second row. Runs, threads, users and
 * agents are plain columns: usage outlives a deleted thread.
 */
@Entity({ name: 'model_usage' })
@Index('model_usage_run_idx', ['runId'])
@Index('model_usage_thread_idx', ['threadId'])
@Index('model_usage_created_idx', ['createdAt'])
@Index('model_usage_user_created_idx', ['userId', 'createdAt'])
export class ModelUsageEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  runId: string;

  @Column({ type: 'uuid' })
  threadId: string;

  @Column({ type: 'uuid' })
  userId: string;

  @Column({ type: 'uuid', nullable: true })
  agentId: string | null;

  @Column({ type: 'varchar', length: 200 })
  model: string;

  @Column({ type: 'varchar', length: 16 })
  purpose: ModelUsagePurpose;

  @Column({ type: 'integer' })
  inputTokens: number;

  @Column({ type: 'integer' })
  outputTokens: number;

  @Column({ type: 'integer' })
  cachedTokens: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
