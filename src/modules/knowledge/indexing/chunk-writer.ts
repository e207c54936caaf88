import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { segment, termFrequencies } from '../search/segment.js';

export interface ChunkToWrite {
  content: string;
  /** Unit vector, when an embeddings model is configured. */
  embedding?: number[];
}

/** Chunks per statement: bounded statements and arrays. */
const CHUNKS_PER_INSERT = 200;

/**
 * Writes a file's chunks and their postings (term, frequency, chunk length) in the caller's transaction;
 * returns the total token count (the file's share of the average chunk length BM25 uses).
 */
@Injectable()
export class ChunkWriter {
  async write(
    manager: EntityManager,
    kbId: string,
    fileId: string,
    chunks: readonly ChunkToWrite[],
  ): Promise<number> {
    let tokens = 0;
    for (let start = 0; start < chunks.length; start += CHUNKS_PER_INSERT) {
      const batch = chunks.slice(start, start + CHUNKS_PER_INSERT);
      const segmented = batch.map((chunk) => segment(chunk.content));
      const inserted = await manager.query<{ id: string; chunk_index: number }[]>(
        `INSERT INTO knowledge_chunks (kb_id, file_id, chunk_index, content, token_count, embedding)
         SELECT $1::uuid, $2::uuid, t.chunk_index, t.content, t.token_count,
                CASE WHEN t.embedding IS NULL THEN NULL ELSE CAST(t.embedding AS real[]) END
           FROM unnest($3::int[], $4::text[], $5::int[], $6::text[]) AS t(chunk_index, content, token_count, embedding)
         RETURNING id, chunk_index`,
        [
          kbId,
          fileId,
          batch.map((_, offset) => start + offset),
          batch.map((chunk) => chunk.content),
          segmented.map((terms) => terms.length),
          batch.map((chunk) => (chunk.embedding === undefined ? null : `{${chunk.embedding.join(',')}}`)),
        ],
      );
      const idOf = new Map(inserted.map((row) => [row.chunk_index, row.id]));
      const postings = {
        terms: [] as string[],
        chunkIds: [] as string[],
        tfs: [] as number[],
        lengths: [] as number[],
      };
      segmented.forEach((terms, index) => {
        tokens += terms.length;
        for (const [term, tf] of termFrequencies(terms)) {
          postings.terms.push(term);
          postings.chunkIds.push(idOf.get(start + index)!);
          postings.tfs.push(tf);
          postings.lengths.push(terms.length);
        }
      });
      await manager.query(
        `INSERT INTO knowledge_postings (kb_id, term, chunk_id, file_id, tf, chunk_length)
         SELECT $1::uuid, t.term, t.chunk_id, $2::uuid, t.tf, t.chunk_length
           FROM unnest($3::text[], $4::bigint[], $5::int[], $6::int[]) AS t(term, chunk_id, tf, chunk_length)`,
        [kbId, fileId, postings.terms, postings.chunkIds, postings.tfs, postings.lengths],
      );
    }
    return tokens;
  }
}
