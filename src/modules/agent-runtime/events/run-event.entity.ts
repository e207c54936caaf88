import { Column, CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { RunEntity } from '../runs/run.entity.js';
import type { RunEventType } from './run-event.js';

/** Every event of a run, numbered from 1 without gaps: what SSE replays after `Last-Event-ID`. */
@Entity({ name: 'run_events' })
export class RunEventEntity {
  @PrimaryColumn('uuid')
  runId: string;

  @ManyToOne(() => RunEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'run_id' })
  run?: RunEntity;

  @PrimaryColumn('int')
  seq: number;

  @Column({ type: 'varchar', length: 32 })
  type: RunEventType;

  @Column({ type: 'jsonb' })
  payload: Record<string, unknown>;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
