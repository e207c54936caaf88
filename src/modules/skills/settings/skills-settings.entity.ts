import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The deployment's skill settings: one row (`id = 'global'`), absent until first saved. */
@Entity({ name: 'skills_settings' })
export class SkillsSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'skills_settings_pkey' })
  id: string;

  /** Lowercase host names a remote skill source may name (exact match); empty disables remote installs. */
  @Column({ type: 'jsonb' })
  remoteSourceAllowedHosts: string[];

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  updatedBy: string | null;
}
