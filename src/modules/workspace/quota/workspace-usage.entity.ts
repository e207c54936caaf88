import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { UserEntity } from '../../users/user.entity.js';

/**
 * The bytes a user's workspace holds, as last measured by walking it and then kept current by every
 * quota-checked write (under the user's advisory lock). Re-measured when older than the quota's
 * freshness bound, and before any refusal, so space freed outside the write paths is seen.
 */
@Entity({ name: 'workspace_usage' })
export class WorkspaceUsageEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'workspace_usage_pkey' })
  userId: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'workspace_usage_user_fk' })
  user?: UserEntity;

  @Column({ type: 'bigint' })
  usedBytes: string;

  @Column({ type: 'timestamptz' })
  measuredAt: Date;
}
