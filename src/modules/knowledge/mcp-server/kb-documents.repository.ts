import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { escapeLike } from '../../../database/escape-like.js';
import { KnowledgeFileEntity, type KnowledgeFileStatus } from '../storage/knowledge-file.entity.js';

/** A file's parsed document, as `find_kb_document` and `open_kb_document` read it. */
export interface KbDocument {
  fileId: string;
  kbId: string;
  filename: string;
  status: KnowledgeFileStatus;
  markdown: string | null;
}

/** One row of `search_file`. */
export interface KbFileListing {
  kb_id: string;
  file_id: string;
  filename: string;
  file_type: string;
  status: KnowledgeFileStatus;
  size_bytes: number;
  version: number;
  updated_at: string;
}

/** The reads of the knowledge tools that go beyond search: documents by id and files by name. */
@Injectable()
export class KbDocumentsRepository {
  constructor(
    @InjectRepository(KnowledgeFileEntity) private readonly files: Repository<KnowledgeFileEntity>,
  ) {}

  /** The file `fileId` of the knowledge base `kbId` (null for another base's file or a malformed id). */
  async document(kbId: string, fileId: string): Promise<KbDocument | null> {
    if (!isUUID(kbId) || !isUUID(fileId)) return null;
    const row = await this.files.findOne({
      select: { id: true, kbId: true, filename: true, status: true, markdown: true },
      where: { id: fileId, kbId },
    });
    if (row === null) return null;
    return {
      fileId: row.id,
      kbId: row.kbId,
      filename: row.filename,
      status: row.status,
      markdown: row.markdown,
    };
  }

  /**
   * Files of `kbIds` whose name contains `query` (case-insensitive, literally), in a stable order
   * (name, then id) so that pages never repeat or skip a file while nothing changes; one more row than
   * asked tells whether there is a next page, and the total is counted in the same statement.
   */
  async searchByName(
    kbIds: readonly string[],
    query: string | undefined,
    offset: number,
    limit: number,
  ): Promise<{ items: KbFileListing[]; total: number; hasMore: boolean }> {
    const ids = kbIds.filter((id) => isUUID(id));
    if (ids.length === 0) return { items: [], total: 0, hasMore: false };
    const pattern = query === undefined || query === '' ? null : `%${escapeLike(query)}%`;
    const rows = await this.files.query<
      (Omit<KbFileListing, 'size_bytes'> & { size_bytes: string; total: string })[]
    >(
      `WITH matching AS (
         SELECT id, kb_id, filename, file_type, status, size_bytes, version, updated_at
         FROM knowledge_files
         WHERE kb_id = ANY($1::uuid[]) AND ($2::text IS NULL OR filename ILIKE $2 ESCAPE '\\')
       )
       SELECT m.id AS file_id, m.kb_id, m.filename, m.file_type, m.status, m.size_bytes, m.version,
              to_char(m.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at,
              (SELECT count(*) FROM matching) AS total
       FROM matching m
       ORDER BY lower(m.filename), m.filename, m.id
       OFFSET $3 LIMIT $4`,
      [ids, pattern, offset, limit + 1],
    );
    const total = rows.length > 0 ? Number(rows[0].total) : await this.count(ids, pattern);
    const items = rows.slice(0, limit).map(({ total: _total, size_bytes, ...row }) => ({
      ...row,
      size_bytes: Number(size_bytes),
    }));
    return { items, total, hasMore: rows.length > limit };
  }

  private async count(ids: string[], pattern: string | null): Promise<number> {
    const [row] = await this.files.query<{ total: string }[]>(
      `SELECT count(*) AS total FROM knowledge_files
       WHERE kb_id = ANY($1::uuid[]) AND ($2::text IS NULL OR filename ILIKE $2 ESCAPE '\\')`,
      [ids, pattern],
    );
    return Number(row.total);
  }
}
