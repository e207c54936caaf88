import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  ForeignKey,
  Index,
  PrimaryGeneratedColumn,
  UpdateDateColumn,
} from 'typeorm';

export const KNOWLEDGE_FILE_STATUSES = ['pending', 'parsing', 'indexed', 'failed'] as const;
export type KnowledgeFileStatus = (typeof KNOWLEDGE_FILE_STATUSES)[number];

export interface KnowledgeFileError {
  code: string;
  message: string;
}

const bigintAsNumber = {
  to: (value: number) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

/**
 * One uploaded version of a document. The original lives under `<DATA_DIR>/knowledge/<kb_id>/<id>`;
 * `markdown` is the parsed document once parsing succeeded. Re-uploading a name adds a row with
 * `version + 1`; the older row (and its chunks) is deleted when the new one reaches `indexed`.
 */
@Entity({ name: 'knowledge_files' })
@Check('knowledge_files_status_check', `"status" IN ('pending', 'parsing', 'indexed', 'failed')`)
@Index('knowledge_files_kb_filename_version_key', ['kbId', 'filename', 'version'], { unique: true })
export class KnowledgeFileEntity {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'knowledge_files_pkey' })
  id: string;

  @Column({ type: 'uuid' })
  @ForeignKey('knowledge_bases', { onDelete: 'CASCADE', name: 'knowledge_files_kb_id_fkey' })
  kbId: string;

  @Column({ type: 'text' })
  filename: string;

  /** The lower-case extension the document was parsed as (`md`, `pdf`, `docx`, …). */
  @Column({ type: 'text' })
  fileType: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  sizeBytes: number;

  @Column({ type: 'text' })
  status: KnowledgeFileStatus;

  @Column({ type: 'jsonb', nullable: true })
  error: KnowledgeFileError | null;

  @Column({ type: 'text', nullable: true })
  markdown: string | null;

  @Column({ type: 'integer', nullable: true })
  lineCount: number | null;

  @Column({ type: 'integer', nullable: true })
  chunkCount: number | null;

  /** Search terms over all chunks (with `chunk_count`: the average chunk length BM25 uses). */
  @Column({ type: 'integer', nullable: true })
  tokenCount: number | null;

  @Column({ type: 'integer' })
  version: number;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
