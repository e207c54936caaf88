import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { AgentConfig } from './config/agent-config.js';
import type { ShareConfig } from '../../common/sharing/index.js';

@Entity({ name: 'agents' })
@Check('agents_slug_check', `"slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND char_length("slug") BETWEEN 2 AND 64`)
@Check('agents_owner_check', `"builtin" OR "owner_id" IS NOT NULL`)
export class AgentEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Index('agents_slug_key', { unique: true })
  @Column({ type: 'varchar', length: 64 })
  slug: string;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'text', nullable: true })
  description: string | null;

  @Column({ type: 'boolean', default: false })
  isSubagent: boolean;

  @Column({ type: 'boolean', default: false })
  builtin: boolean;

  /** The creator; null for builtin agents. */
  @Index('agents_owner_id_idx')
  @Column({ type: 'uuid', nullable: true })
  ownerId: string | null;

  @Column({ type: 'jsonb' })
  shareConfig: ShareConfig;

  @Column({ type: 'jsonb' })
  config: AgentConfig;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
