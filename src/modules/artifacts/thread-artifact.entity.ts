import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A file presented in a thread: ordered by first presentation, each path once per thread. */
@Entity({ name: 'thread_artifacts' })
@Index('thread_artifacts_thread_path_key', ['threadId', 'path'], { unique: true })
@Index('thread_artifacts_thread_position_idx', ['threadId', 'position'])
export class ThreadArtifactEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ type: 'uuid' })
  threadId: string;

  /** The run that first presented it. */
  @Column({ type: 'uuid' })
  runId: string;

  @Column({ type: 'uuid' })
  userId: string;

  /** Virtual path, as the user sees it. */
  @Column({ type: 'text' })
  path: string;

  @Column({ type: 'integer' })
  position: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
