import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

export interface RankedChunk {
  id: string;
  score: number;
}

/** BM25's usual constants. */
const K1 = 1.2;
const B = 0.75;

/**
 * Okapi BM25 in SQL over the chosen knowledge bases. The postings of the query terms come from one
 * index range each (term frequency and chunk length included); document frequencies are counted from
 * them; N and the total length come from the indexed files' counters, so no chunk row is read until the
 * winners are fetched.
 */
export const BM25_SQL = `
WITH stats AS (
  SELECT coalesce(sum(chunk_count), 0)::float8 AS n,
         greatest(coalesce(sum(token_count), 0)::float8 / greatest(coalesce(sum(chunk_count), 0), 1), 1) AS avgdl
    FROM knowledge_files WHERE kb_id = ANY($1::uuid[]) AND status = 'indexed'
),
postings AS (
  SELECT p.chunk_id, p.term, p.tf::float8 AS tf, p.chunk_length::float8 AS chunk_length
    FROM knowledge_postings p
   WHERE p.kb_id = ANY($1::uuid[]) AND p.term = ANY($2::text[])
     AND ($4::text IS NULL OR p.file_id IN (
       SELECT f.id FROM knowledge_files f WHERE f.kb_id = ANY($1::uuid[]) AND lower(f.filename) = lower($4)))
),
weights AS (
  SELECT d.term, ln(1 + (greatest(s.n, d.df) - d.df + 0.5) / (d.df + 0.5)) AS idf,
         ${K1} * ${1 - B}::float8 AS k_fixed, ${K1} * ${B}::float8 / s.avgdl AS k_per_token
    FROM (SELECT term, count(*)::float8 AS df FROM postings GROUP BY term) AS d CROSS JOIN stats s
)
SELECT p.chunk_id::text AS id,
       sum(w.idf * p.tf * ${K1 + 1}::float8 / (p.tf + w.k_fixed + w.k_per_token * p.chunk_length)) AS score
  FROM postings p JOIN weights w USING (term)
 GROUP BY p.chunk_id
 ORDER BY score DESC, p.chunk_id ASC
 LIMIT $3`;

@Injectable()
export class LexicalRanking {
  constructor(private readonly dataSource: DataSource) {}

  async rank(kbIds: string[], terms: string[], limit: number, fileName?: string): Promise<RankedChunk[]> {
    if (kbIds.length === 0 || terms.length === 0) return [];
    const rows = await this.dataSource.query<RankedChunk[]>(BM25_SQL, [
      kbIds,
      terms,
      limit,
      fileName ?? null,
    ]);
    return rows.map((row) => ({ id: row.id, score: Number(row.score) }));
  }
}
