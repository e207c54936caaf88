import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A conversation of one user with one agent; its files live in the project workdir `project`. */
@Entity({ name: 'threads' })
@Index('threads_user_request_key', ['userId', 'requestId'], { unique: true })
@Index('threads_user_created_idx', ['userId', 'createdAt'])
export class ThreadEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string;

  /**
   * The agent the thread was created with, by id: runs resolve the agent through it, never by slug.
   * Null once that agent is deleted (a new agent taking the slug is another agent).
   */
  @Index('threads_agent_id_idx')
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey('agents', { onDelete: 'SET NULL', name: 'threads_agent_id_fkey' })
  agentId: string | null;

  /** The agent's slug at creation (slugs never change), shown even after the agent is gone. */
  @Column({ type: 'varchar', length: 64 })
  agentSlug: string;

  @Column({ type: 'varchar', length: 200 })
  title: string;

  /** Workdir slug: `/home/gem/user-data/workdir/<project>/`. */
  @Column({ type: 'varchar', length: 64 })
  project: string;

  /** Set for a subagent's child thread (not listed with the user's threads). */
  @Column({ type: 'uuid', nullable: true })
  parentThreadId: string | null;

  /** Idempotency key of the creating request (null when none was given). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  payloadDigest: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
