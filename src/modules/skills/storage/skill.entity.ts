import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { ShareConfig } from '../../../common/sharing/index.js';
import type { OpenFormatFields } from '../package/skill-md.js';

export type SkillSourceType = 'builtin' | 'shared';

/**
 * The index of one shared or builtin skill; its files live in `<DATA_DIR>/skills/<slug>/` (what agents
 * read as `/home/gem/skills/<slug>/`). Personal skills have no row. Name, description, version and
 * dependencies mirror the root SKILL.md, which owns them.
 */
@Entity({ name: 'skills' })
@Check('skills_slug_check', `"slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") <= 128`)
@Check('skills_source_type_check', `"source_type" IN ('builtin', 'shared')`)
export class SkillEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'skills_pkey' })
  slug: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  description: string;

  @Column({ type: 'text' })
  version: string;

  @Column({ type: 'text' })
  sourceType: SkillSourceType;

  /** The creator; null for builtin skills (and when the creator's account is deleted). */
  @Index('skills_owner_id_idx')
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey('users', { onDelete: 'SET NULL', name: 'skills_owner_id_fkey' })
  ownerId: string | null;

  @Column({ type: 'jsonb' })
  shareConfig: ShareConfig;

  @Column({ type: 'boolean', default: true })
  enabled: boolean;

  @Column({ type: 'jsonb' })
  toolDependencies: string[];

  @Column({ type: 'jsonb' })
  mcpDependencies: string[];

  @Column({ type: 'jsonb' })
  skillDependencies: string[];

  @Column({ type: 'jsonb' })
  openFormat: OpenFormatFields;

  /** Grows by one at every change of files or index fields (caches of part 3 key on it). */
  @Column({ type: 'integer' })
  revision: number;

  /** SHA-256 over every file's path and content. */
  @Column({ type: 'text' })
  contentHash: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
