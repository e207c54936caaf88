import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

/** A cron rule that starts a run of one agent for its owner, each period on a new thread. */
@Entity({ name: 'schedules' })
@Index('schedules_owner_request_key', ['ownerId', 'requestId'], { unique: true })
@Index('schedules_owner_created_idx', ['ownerId', 'createdAt'])
@Index('schedules_due_idx', ['nextRunAt'], { where: 'enabled' })
export class ScheduleEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE', name: 'schedules_owner_id_fkey' })
  ownerId: string;

  /** Deleting the agent deletes its schedules (and their occurrences). */
  @Index('schedules_agent_id_idx')
  @Column({ type: 'uuid' })
  @ForeignKey('agents', { onDelete: 'CASCADE', name: 'schedules_agent_id_fkey' })
  agentId: string;

  @Column({ type: 'varchar', length: 64 })
  agentSlug: string;

  /** Five fields: minute hour day-of-month month day-of-week. */
  @Column({ type: 'varchar', length: 200 })
  cron: string;

  /** An IANA time-zone name the cron is read in. */
  @Column({ type: 'varchar', length: 64 })
  timezone: string;

  @Column({ type: 'text' })
  input: string;

  @Column({ type: 'boolean' })
  enabled: boolean;

  /** The next period not yet claimed; null while disabled. */
  @Column({ type: 'timestamptz', nullable: true })
  nextRunAt: Date | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @Column({ type: 'char', length: 64, nullable: true })
  payloadDigest: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
