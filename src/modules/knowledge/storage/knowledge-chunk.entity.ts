import { Column, Entity, ForeignKey, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * One indexed passage of a file. Its terms (our own segmentation, Chinese and English alike, see
 * `search/segment.ts`) are in `knowledge_postings`; `token_count` is the passage length BM25 normalizes
 * by; `embedding` is the unit vector when an embeddings model is set.
 */
@Entity({ name: 'knowledge_chunks' })
@Index('knowledge_chunks_file_chunk_key', ['fileId', 'chunkIndex'], { unique: true })
export class KnowledgeChunkEntity {
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'knowledge_chunks_pkey' })
  id: string;

  @Index('knowledge_chunks_kb_id_idx')
  @Column({ type: 'uuid' })
  @ForeignKey('knowledge_bases', { onDelete: 'CASCADE', name: 'knowledge_chunks_kb_id_fkey' })
  kbId: string;

  @Column({ type: 'uuid' })
  @ForeignKey('knowledge_files', { onDelete: 'CASCADE', name: 'knowledge_chunks_file_id_fkey' })
  fileId: string;

  @Column({ type: 'integer' })
  chunkIndex: number;

  @Column({ type: 'text' })
  content: string;

  @Column({ type: 'integer' })
  tokenCount: number;

  @Column({ type: 'real', array: true, nullable: true, select: false })
  embedding: number[] | null;
}
