import { Column, Entity, ForeignKey, Index, PrimaryColumn } from 'typeorm';

/**
 * The inverted index: one row per (term, chunk) with the term's frequency in the chunk and the chunk's
 * length, so BM25 reads everything it needs from one index range per query term (index-only). Rows go
 * with their file (cascade).
 */
@Entity({ name: 'knowledge_postings' })
@Index('knowledge_postings_file_id_idx', ['fileId'])
export class KnowledgePostingEntity {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'knowledge_postings_pkey' })
  kbId: string;

  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'knowledge_postings_pkey' })
  term: string;

  @PrimaryColumn({ type: 'bigint', primaryKeyConstraintName: 'knowledge_postings_pkey' })
  chunkId: string;

  @Column({ type: 'uuid' })
  @ForeignKey('knowledge_files', { onDelete: 'CASCADE', name: 'knowledge_postings_file_id_fkey' })
  fileId: string;

  @Column({ type: 'integer' })
  tf: number;

  @Column({ type: 'integer' })
  chunkLength: number;
}
