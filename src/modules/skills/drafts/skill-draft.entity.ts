import { Column, CreateDateColumn, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * One unconfirmed skill draft, for the per-user caps and the cleaning job; what it holds lies in
 * `<DATA_DIR>/skill-drafts/<id>/` (see `SkillDraftFiles`).
 */
@Entity({ name: 'skill_drafts' })
export class SkillDraftEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'skill_drafts_pkey' })
  id: string;

  @Index('skill_drafts_owner_id_idx')
  @Column({ type: 'uuid' })
  @ForeignKey('users', { onDelete: 'CASCADE', name: 'skill_drafts_owner_id_fkey' })
  ownerId: string;

  /** The size of the uploaded or fetched source. */
  @Column({ type: 'bigint' })
  bytes: string;

  @Index('skill_drafts_expires_at_idx')
  @Column({ type: 'timestamptz' })
  expiresAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;
}
