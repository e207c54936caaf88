import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { readFile } from 'node:fs/promises';
import { DataSource, LessThan, Repository } from 'typeorm';
import { DomainError } from '../../../common/errors/index.js';
import { DocumentExtraction, isExtractableType } from '../../ocr/index.js';
import { KnowledgeFileLocations } from '../files/knowledge-file-locations.js';
import { KnowledgeErrorCode, KnowledgeErrors } from '../knowledge.errors.js';
import { EMBEDDINGS_BATCH, EmbeddingsClient } from '../search/embeddings-client.js';
import { KnowledgeFileEntity, type KnowledgeFileError } from '../storage/knowledge-file.entity.js';
import { chunkMarkdown } from './chunk-markdown.js';
import { ChunkWriter, type ChunkToWrite } from './chunk-writer.js';

export type IndexOutcome = 'indexed' | 'failed' | 'gone';

/** Errors that say the document itself is bad: retrying cannot help, so they are final. */
const isDocumentError = (error: unknown): error is DomainError =>
  error instanceof DomainError && ['invalid', 'unprocessable', 'too_large'].includes(error.kind);

const lineCountOf = (markdown: string): number => (markdown === '' ? 0 : markdown.split('\n').length);

/**
 * Parses, chunks and indexes one uploaded file: `pending` → `parsing` → `indexed` (chunks, Markdown and
 * line count written in one transaction, which also deletes the older versions of the name) or
 * `failed` with `{code, message}` (older versions stay searchable). A file deleted meanwhile is left alone.
 */
@Injectable()
export class KnowledgeIndexer {
  private readonly logger = new Logger(KnowledgeIndexer.name);

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(KnowledgeFileEntity) private readonly files: Repository<KnowledgeFileEntity>,
    private readonly locations: KnowledgeFileLocations,
    private readonly extraction: DocumentExtraction,
    private readonly embeddings: EmbeddingsClient,
    private readonly writer: ChunkWriter,
  ) {}

  /** `finalAttempt`: an infrastructure error is recorded on the file instead of being retried. */
  async index(fileId: string, signal: AbortSignal, finalAttempt: boolean): Promise<IndexOutcome> {
    const file = await this.files.findOneBy({ id: fileId });
    if (file === null || file.status === 'indexed') return 'gone';
    await this.files.update({ id: fileId }, { status: 'parsing', error: null });
    try {
      const markdown = await this.parse(file, signal);
      const chunks = chunkMarkdown(markdown);
      if (chunks.length === 0) throw KnowledgeErrors.noText();
      const embedded = await this.embed(chunks);
      return await this.commit(file, markdown, embedded);
    } catch (error) {
      if (!isDocumentError(error) && !finalAttempt) throw error;
      const stored: KnowledgeFileError = isDocumentError(error)
        ? { code: error.code, message: error.message }
        : {
            code: KnowledgeErrorCode.PARSE_FAILED,
            message: 'The file could not be indexed; upload it again.',
          };
      if (!isDocumentError(error))
        this.logger.error({ err: error, file_id: fileId }, 'knowledge file failed');
      await this.files.update({ id: fileId }, { status: 'failed', error: stored });
      return 'failed';
    }
  }

  private async parse(file: KnowledgeFileEntity, signal: AbortSignal): Promise<string> {
    if (!isExtractableType(file.fileType))
      throw KnowledgeErrors.parseFailed(`unknown type "${file.fileType}"`);
    const bytes = await readFile(this.locations.original(file.kbId, file.id));
    const markdown = await this.extraction.toMarkdown(file.filename, file.fileType, bytes, signal);
    if (markdown === '') throw KnowledgeErrors.noText();
    return markdown;
  }

  /** Vectors when an embeddings model is set; if the service fails the file is indexed lexically only. */
  private async embed(chunks: string[]): Promise<ChunkToWrite[]> {
    if (!this.embeddings.enabled) return chunks.map((content) => ({ content }));
    try {
      const vectors: number[][] = [];
      for (let start = 0; start < chunks.length; start += EMBEDDINGS_BATCH) {
        vectors.push(...(await this.embeddings.embed(chunks.slice(start, start + EMBEDDINGS_BATCH))));
      }
      return chunks.map((content, index) => ({ content, embedding: vectors[index] }));
    } catch (error) {
      this.logger.warn({ err: error }, 'embeddings unavailable: indexing lexically only');
      return chunks.map((content) => ({ content }));
    }
  }

  private async commit(
    file: KnowledgeFileEntity,
    markdown: string,
    chunks: ChunkToWrite[],
  ): Promise<IndexOutcome> {
    const replaced = await this.dataSource.transaction(async (manager) => {
      const rows = manager.getRepository(KnowledgeFileEntity);
      const current = await rows.findOne({ where: { id: file.id }, lock: { mode: 'pessimistic_write' } });
      if (current === null) return null;
      await manager.query(`DELETE FROM knowledge_chunks WHERE file_id = $1`, [file.id]);
      await this.writer.write(manager, file.kbId, file.id, chunks);
      await rows.update(
        { id: file.id },
        {
          status: 'indexed',
          error: null,
          markdown,
          lineCount: lineCountOf(markdown),
          chunkCount: chunks.length,
        },
      );
      const older = await rows.find({
        select: { id: true },
        where: { kbId: file.kbId, filename: file.filename, version: LessThan(file.version) },
      });
      if (older.length > 0) await rows.delete(older.map((row) => row.id));
      return older.map((row) => row.id);
    });
    if (replaced === null) return 'gone';
    await Promise.all(replaced.map((id) => this.locations.removeFile(file.kbId, id)));
    return 'indexed';
  }
}
