import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { anyTermQuery } from './segment.js';

export interface RankedChunk {
  id: string;
  score: number;
}

/** BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 in SQL over the chosen knowledge bases: candidates come from the GIN index on `terms`
 * (any query term), term frequencies from the tsvector's positions, document frequencies from the
 * candidates (every passage holding a term is one), and N and the average length from the bases.
 */
const BM25_SQL = `
WITH stats AS (
  SELECT count(*)::float8 AS n, greatest(avg(token_count), 1)::float8 AS avgdl
    FROM knowledge_chunks WHERE kb_id = ANY($1::uuid[])
),
candidates AS (
  SELECT c.id, c.token_count, c.terms FROM knowledge_chunks c
   WHERE c.kb_id = ANY($1::uuid[]) AND c.terms @@ $2::tsquery
     AND ($5::text IS NULL OR c.file_id IN (
       SELECT f.id FROM knowledge_files f WHERE f.kb_id = ANY($1::uuid[]) AND lower(f.filename) = lower($5)))
),
frequencies AS (
  SELECT c.id, c.token_count, t.lexeme, coalesce(array_length(t.positions, 1), 1)::float8 AS tf
    FROM candidates c CROSS JOIN LATERAL unnest(c.terms) AS t
   WHERE t.lexeme = ANY($3::text[])
),
document_frequencies AS (
  SELECT lexeme, count(*)::float8 AS df FROM frequencies GROUP BY lexeme
)
SELECT f.id::text AS id,
       sum(ln(1 + (s.n - d.df + 0.5) / (d.df + 0.5))
           * f.tf * ${K1 + 1} / (f.tf + ${K1} * (${1 - B} + ${B} * f.token_count / s.avgdl)))::float8 AS score
  FROM frequencies f JOIN document_frequencies d USING (lexeme) CROSS JOIN stats s
 GROUP BY f.id
 ORDER BY score DESC, f.id ASC
 LIMIT $4`;

@Injectable()
export class LexicalRanking {
  constructor(private readonly dataSource: DataSource) {}

  async rank(kbIds: string[], terms: string[], limit: number, fileName?: string): Promise<RankedChunk[]> {
    if (kbIds.length === 0 || terms.length === 0) return [];
    const rows = await this.dataSource.query<RankedChunk[]>(BM25_SQL, [
      kbIds,
      anyTermQuery(terms),
      terms,
      limit,
      fileName ?? null,
    ]);
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
}
