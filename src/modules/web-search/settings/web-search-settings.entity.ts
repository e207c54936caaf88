import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The deployment's web search settings: one row (`id = 'global'`). Keys are `SecretBox` ciphertexts
 * bound to this table, row and column; null means "no saved key" (the environment variable applies).
 */
@Entity({ name: 'web_search_settings' })
export class WebSearchSettingsEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'web_search_settings_pkey' })
  id: string;

  @Column({ type: 'text' })
  searchProvider: string;

  @Column({ type: 'text' })
  fetchProvider: string;

  @Column({ type: 'text', nullable: true })
  tavilyApiKey: string | null;

  @Column({ type: 'text', nullable: true })
  deepseekApiKey: string | null;

  @Column({ type: 'text', nullable: true })
  doubaoApiKey: string | null;

  @Column({ type: 'timestamptz' })
  updatedAt: Date;

  @Column({ type: 'uuid', nullable: true })
  updatedBy: string | null;
}
