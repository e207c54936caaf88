import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { ToolCallOutcome } from '../tool-call-scope.js';

/**
 * One audit row per tool call (refusals and revocations included): who ran what, with which outcome and
 * how long.
 */
@Entity({ name: 'tool_calls' })
@Index('tool_calls_run_id_created_at_idx', ['runId', 'createdAt'])
export class ToolCallEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  runId: string;

  @Column({ type: 'uuid' })
  threadId: string;

  @Column({ type: 'varchar', length: 200 })
  toolCallId: string;

  @Column({ type: 'varchar', length: 200 })
  toolName: string;

  @Index('tool_calls_user_id_idx')
  @Column({ type: 'uuid' })
  userId: string;

  /** SHA-256 of the canonical JSON of the arguments as the model sent them (never the arguments). */
  @Column({ type: 'char', length: 64 })
  argsDigest: string;

  @Column({ type: 'varchar', length: 16 })
  outcome: ToolCallOutcome;

  @Column({ type: 'varchar', length: 200, nullable: true })
  errorCode: string | null;

  @Column({ type: 'integer' })
  durationMs: number;

  /**
   * How approval decided the call: `allow` / `deny` by policy, `approve` / `reject` / `edit` by a person,
   * `ask` when it reached execution undecided; null when no policy applied or a guard refused it first.
   */
  @Column({ type: 'varchar', length: 16, nullable: true })
  decision: string | null;

  /** `base`, `rule:<n>`, `default`, `auto`, `thread` (remembered), or the id of the person who decided. */
  @Column({ type: 'varchar', length: 80, nullable: true })
  decidedBy: string | null;

  /** The person's approval also allowed the tool for the rest of the thread (`remember: "thread"`). */
  @Column({ type: 'boolean', default: false })
  remembered: boolean;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
