import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * The bytes a user's workspace holds, as last measured by walking it and then kept current by every
 * quota-checked write (under the user's advisory lock). Re-measured when older than the quota's
 * freshness bound, and before any refusal, so space freed outside the write paths is seen.
 */
@Entity({ name: 'workspace_usage' })
export class WorkspaceUsageEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'workspace_usage_pkey' })
  @ForeignKey('users', { onDelete: 'CASCADE', name: 'workspace_usage_user_fk' })
  userId: string;

  @Column({ type: 'bigint' })
  usedBytes: string;

  @Column({ type: 'timestamptz' })
  measuredAt: Date;
}
