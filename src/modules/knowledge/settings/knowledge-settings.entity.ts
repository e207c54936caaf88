import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The deployment's knowledge settings: one row (`id = 'global'`), absent until first saved. */
@Entity({ name: 'knowledge_settings' })
export class KnowledgeSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'knowledge_settings_pkey' })
  id: string;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  updatedBy: string | null;
}
