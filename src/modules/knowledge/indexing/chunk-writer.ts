import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { segment, termsVector } from '../search/segment.js';

export interface ChunkToWrite {
  content: string;
  /** Unit vector, when an embeddings model is configured. */
  embedding?: number[];
}

/** Rows per INSERT: bounded statements, well under PostgreSQL's parameter limit. */
const ROWS_PER_INSERT = 200;

/** Writes a file's chunks with their search terms (our segmentation as a tsvector) in the caller's transaction. */
@Injectable()
export class ChunkWriter {
  async write(
    manager: EntityManager,
    kbId: string,
    fileId: string,
    chunks: readonly ChunkToWrite[],
  ): Promise<void> {
    for (let start = 0; start < chunks.length; start += ROWS_PER_INSERT) {
      const batch = chunks.slice(start, start + ROWS_PER_INSERT);
      const values: unknown[] = [];
      const rows = batch.map((chunk, offset) => {
        const terms = segment(chunk.content);
        values.push(
          kbId,
          fileId,
          start + offset,
          chunk.content,
          terms.length,
          termsVector(terms),
          chunk.embedding ?? null,
        );
        const p = offset * 7;
        return `($${p + 1}::uuid, $${p + 2}::uuid, $${p + 3}::int, $${p + 4}, $${p + 5}::int, $${p + 6}::tsvector, $${p + 7}::real[])`;
      });
      await manager.query(
        `INSERT INTO knowledge_chunks (kb_id, file_id, chunk_index, content, token_count, terms, embedding) VALUES ${rows.join(', ')}`,
        values,
      );
    }
  }
}
