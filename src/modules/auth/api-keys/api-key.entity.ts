import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
@Index('api_keys_user_request_key', ['userId', 'requestId'], { unique: true })
export class ApiKeyEntity {
  /** Derived from the user and request id, so a replayed creation lands on the same row. */
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE' })
  userId: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  /** `yxk_` and the first 8 hex characters: enough to recognise a key, useless to use it. */
  @Column({ type: 'varchar', length: 16 })
  keyPrefix: string;

  /** SHA-256 of the full key (hex). The key itself is never stored. */
  @Index('api_keys_key_hash_key', { unique: true })
  @Column({ type: 'char', length: 64 })
  keyHash: string;

  @Column({ type: 'varchar', length: 64 })
  requestId: string;

  /** Digest of the creation payload, to tell a replay from a conflicting reuse of `request_id`. */
  @Column({ type: 'char', length: 64 })
  payloadDigest: string;

  @Column({ type: 'timestamptz', nullable: true })
  expiresAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  revokedAt: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
