import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Queue } from 'bullmq';
import { QueryFailedError, Repository } from 'typeorm';
import { decodeCursor, toPage, type Page } from '../../../common/pagination/cursor.js';
import { newestFirstPage } from '../../../common/pagination/keyset.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import { escapeLike } from '../../../database/escape-like.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../../database/unique-violation.js';
import { enqueueOrFail } from '../../../queue/enqueue-or-fail.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { isExtractableType } from '../../ocr/index.js';
import { sanitizeUploadFilename } from '../../workspace/index.js';
import { fileView } from '../bases/knowledge-base-view.js';
import { KnowledgeBasesService } from '../bases/knowledge-bases.service.js';
import type { KnowledgeFileDto, ListKnowledgeFilesQueryDto } from '../dto/knowledge-file.dto.js';
import {
  INDEX_FILE_ATTEMPTS,
  INDEX_FILE_JOB,
  KNOWLEDGE_INDEXING_QUEUE,
  type IndexFileJob,
} from '../indexing/knowledge-indexing.queue.js';
import { KnowledgeErrors } from '../knowledge.errors.js';
import { KnowledgeFileEntity } from '../storage/knowledge-file.entity.js';
import { KnowledgeFileLocations } from './knowledge-file-locations.js';
import type { UploadedTempFile } from './kb-upload.js';

/** What a knowledge base accepts, by extension (csv and xlsx become tables). */
export const KB_FILE_TYPES = ['md', 'markdown', 'txt', 'html', 'htm', 'pdf', 'docx', 'csv', 'xlsx'] as const;

/** Concurrent uploads of one name race for the next version; the loser tries the one after. */
const VERSION_TRIES = 5;

/** The name as shown (the last path segment of what the client sent, in UTF-8) and its type. */
function nameAndType(originalname: string): { filename: string; fileType: string } {
  // multer decodes the multipart filename as latin1; clients send UTF-8.
  const decoded = Buffer.from(originalname, 'latin1').toString('utf8');
  // As thread uploads: no directories, no NUL or other control characters, a bounded length.
  const filename = sanitizeUploadFilename(decoded);
  const dot = filename.lastIndexOf('.');
  const fileType = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
  const allowed = (KB_FILE_TYPES as readonly string[]).includes(fileType) && isExtractableType(fileType);
  if (!allowed) throw KnowledgeErrors.unsupportedFileType(filename, KB_FILE_TYPES);
  return { filename, fileType };
}

/**
 * Files of a knowledge base: managers upload (a new version of the name each time) and delete; readers
 * list and read their status. Parsing and indexing happen on the `knowledge-indexing` queue.
 */
@Injectable()
export class KnowledgeFilesService {
  constructor(
    @InjectRepository(KnowledgeFileEntity) private readonly files: Repository<KnowledgeFileEntity>,
    @InjectQueue(KNOWLEDGE_INDEXING_QUEUE) private readonly queue: Queue<IndexFileJob>,
    private readonly redis: RedisClient,
    private readonly kbs: KnowledgeBasesService,
    private readonly locations: KnowledgeFileLocations,
  ) {}

  async upload(actor: ShareActor, kbId: string, upload: UploadedTempFile): Promise<KnowledgeFileDto> {
    await this.kbs.managed(actor, kbId);
    const { filename, fileType } = nameAndType(upload.originalname);
    const row = await this.insertNextVersion(kbId, filename, fileType, upload.size);
    try {
      await this.locations.store(upload.path, kbId, row.id);
      await enqueueOrFail(
        this.redis,
        this.queue,
        INDEX_FILE_JOB,
        { fileId: row.id },
        {
          jobId: row.id,
          attempts: INDEX_FILE_ATTEMPTS,
          backoff: { type: 'exponential', delay: 1000 },
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
    } catch (error) {
      // Nothing would ever index it: the upload fails as a whole.
      await this.files.delete({ id: row.id });
      await this.locations.removeFile(kbId, row.id);
      throw error;
    }
    return fileView(row);
  }

  async list(
    actor: ShareActor,
    kbId: string,
    query: ListKnowledgeFilesQueryDto,
  ): Promise<Page<KnowledgeFileDto>> {
    await this.kbs.readable(actor, kbId);
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const builder = this.files.createQueryBuilder('f').where('f.kb_id = :kbId', { kbId });
    if (query.query !== undefined && query.query !== '') {
      builder.andWhere(`f.filename ILIKE :pattern ESCAPE '\\'`, { pattern: `%${escapeLike(query.query)}%` });
    }
    const rows = await newestFirstPage(builder, 'f', query.limit, after).getMany();
    return toPage(rows, query.limit, fileView);
  }

  async get(actor: ShareActor, kbId: string, fileId: string): Promise<KnowledgeFileDto> {
    await this.kbs.readable(actor, kbId);
    return fileView(await this.find(kbId, fileId));
  }

  /** Its chunks go with it (cascade); an indexing job still queued for it finds nothing to do. */
  async remove(actor: ShareActor, kbId: string, fileId: string): Promise<void> {
    await this.kbs.managed(actor, kbId);
    await this.find(kbId, fileId);
    await this.files.delete({ id: fileId, kbId });
    await this.locations.removeFile(kbId, fileId);
  }

  private async find(kbId: string, fileId: string): Promise<KnowledgeFileEntity> {
    const row = await this.files.findOneBy({ id: fileId, kbId });
    if (row === null) throw KnowledgeErrors.fileNotFound(fileId);
    return row;
  }

  private async insertNextVersion(
    kbId: string,
    filename: string,
    fileType: string,
    sizeBytes: number,
  ): Promise<KnowledgeFileEntity> {
    for (let attempt = 1; ; attempt += 1) {
      const latest = await this.files.findOne({
        select: { version: true },
        where: { kbId, filename },
        order: { version: 'DESC' },
      });
      try {
        return await this.files.save(
          this.files.create({
            kbId,
            filename,
            fileType,
            sizeBytes,
            status: 'pending',
            error: null,
            version: (latest?.version ?? 0) + 1,
          }),
        );
      } catch (error) {
        if (!(error instanceof QueryFailedError)) throw error;
        // The base was deleted since the manager check.
        if (isForeignKeyViolation(error)) throw KnowledgeErrors.notFound(kbId);
        if (!isUniqueViolation(error) || attempt >= VERSION_TRIES) throw error;
      }
    }
  }
}
