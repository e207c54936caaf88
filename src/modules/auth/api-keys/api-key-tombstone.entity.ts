import { Column, Entity, ForeignKey, PrimaryColumn } from 'typeorm';

/**
 * Left by the retention purge in place of a revoked or expired key, and never deleted: the key is
 * derived from (user, request id), so without it a replayed creation would make the same key again.
 */
@Entity({ name: 'api_key_tombstones' })
export class ApiKeyTombstoneEntity {
  @PrimaryColumn({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  requestId: string;

  /** The purged key's id, for audit. */
  @Column({ type: 'uuid' })
  keyId: string;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  purgedAt: Date;
}
