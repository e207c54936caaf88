import {
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';
import type { ShareConfig } from '../../../common/sharing/index.js';

/** A knowledge base: named, shared by a v2 share config (default: readable by everyone). */
@Entity({ name: 'knowledge_bases' })
export class KnowledgeBaseEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'knowledge_bases_pkey' })
  id: string;

  @Column({ type: 'text' })
  name: string;

  @Column({ type: 'text' })
  description: string;

  /** The creator; null once the creator's account is deleted. */
  @Index('knowledge_bases_owner_id_idx')
  @Column({ type: 'uuid', nullable: true })
  @ForeignKey('users', { onDelete: 'SET NULL', name: 'knowledge_bases_owner_id_fkey' })
  ownerId: string | null;

  @Column({ type: 'jsonb' })
  shareConfig: ShareConfig;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
