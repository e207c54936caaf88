import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

export const OCCURRENCE_STATUSES = ['pending', 'started', 'skipped', 'failed'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

/** Why an occurrence started no run. */
export type OccurrenceReason = 'previous_unfinished' | 'agent_unavailable' | 'owner_disabled' | 'run_refused';

/**
 * One firing of a schedule: a period of its cron (`kind` scheduled), or a "run now" (`kind` manual).
 * A period is claimed by inserting its row: the unique key on (schedule, period) makes that once.
 * `pending` between the claim and the run's creation; a pending row left by a dead worker is fired
 * again, and the thread and run it makes are keyed by the occurrence, so a retry makes the same ones.
 */
@Entity({ name: 'schedule_occurrences' })
@Index('schedule_occurrences_period_key', ['scheduleId', 'scheduledFor'], {
  unique: true,
  where: `kind = 'scheduled'`,
})
@Index('schedule_occurrences_request_key', ['scheduleId', 'requestId'], { unique: true })
@Index('schedule_occurrences_schedule_created_idx', ['scheduleId', 'createdAt'])
@Index('schedule_occurrences_pending_idx', ['createdAt'], { where: `status = 'pending'` })
export class ScheduleOccurrenceEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('schedules', { onDelete: 'CASCADE', name: 'schedule_occurrences_schedule_id_fkey' })
  scheduleId: string;

  @Column({ type: 'varchar', length: 16 })
  kind: 'scheduled' | 'manual';

  /** The period fired (a manual occurrence: when it was asked for). */
  @Column({ type: 'timestamptz' })
  scheduledFor: Date;

  @Column({ type: 'varchar', length: 16 })
  status: OccurrenceStatus;

  @Column({ type: 'varchar', length: 64, nullable: true })
  reason: OccurrenceReason | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey('runs', { onDelete: 'SET NULL', name: 'schedule_occurrences_run_id_fkey' })
  runId: string | null;

  @Column({ type: 'uuid', nullable: true })
  @ForeignKey('threads', { onDelete: 'SET NULL', name: 'schedule_occurrences_thread_id_fkey' })
  threadId: string | null;

  /** A manual occurrence's idempotency key. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  requestId: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
