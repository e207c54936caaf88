import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RankedChunk } from './lexical-ranking.js';

/**
 * Exact cosine similarity in SQL (pgvector is not assumed): both vectors are unit length, so the
 * similarity is the dot product of the `real[]` columns. A full scan of the bases' chunks that have a
 * vector of the query's dimension.
 */
const COSINE_SQL = `
SELECT c.id::text AS id,
       (SELECT sum(a * b) FROM unnest(c.embedding, $2::real[]) AS v(a, b))::float8 AS score
  FROM knowledge_chunks c
 WHERE c.kb_id = ANY($1::uuid[]) AND c.embedding IS NOT NULL
   AND cardinality(c.embedding) = cardinality($2::real[])
   AND ($4::text IS NULL OR c.file_id IN (
     SELECT f.id FROM knowledge_files f WHERE f.kb_id = ANY($1::uuid[]) AND lower(f.filename) = lower($4)))
 ORDER BY score DESC, c.id ASC
 LIMIT $3`;

@Injectable()
export class VectorRanking {
  constructor(private readonly dataSource: DataSource) {}

  async rank(kbIds: string[], vector: number[], limit: number, fileName?: string): Promise<RankedChunk[]> {
    if (kbIds.length === 0 || vector.length === 0) return [];
    const rows = await this.dataSource.query<RankedChunk[]>(COSINE_SQL, [
      kbIds,
      vector,
      limit,
      fileName ?? null,
    ]);
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
}
