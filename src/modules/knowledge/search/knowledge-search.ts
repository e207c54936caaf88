import { Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { DataSource } from 'typeorm';
import {
  ATTR,
  inSpan,
  setContentAttribute,
  SpanKind,
  type Span,
} from '../../../observability/tracing/index.js';
import { EmbeddingsClient } from './embeddings-client.js';
import type { KbHit, KbQuery } from './kb-hit.js';
import { LexicalRanking, type RankedChunk } from './lexical-ranking.js';
import { reciprocalRankFusion } from './reciprocal-rank-fusion.js';
import { segment } from './segment.js';
import { VectorRanking } from './vector-ranking.js';
import { KnowledgeErrorCode } from '../knowledge.errors.js';

/** Each ranking feeds the fusion this many candidates (at least top_k). */
const FUSION_DEPTH = 50;

const HITS_SQL = `
SELECT c.id::text AS id, c.kb_id AS "kbId", c.file_id AS "fileId", f.filename, c.chunk_index AS "chunkIndex",
       c.content
  FROM knowledge_chunks c JOIN knowledge_files f ON f.id = c.file_id
 WHERE c.id = ANY($1::bigint[])`;

/**
 * Retrieval over knowledge bases: BM25 over our own segmentation (works for Chinese and English with
 * nothing configured), fused by reciprocal rank with exact cosine search when an embeddings model is
 * set. If the embeddings service fails at query time the lexical ranking answers alone. No access
 * checks here: callers decide which bases may be searched.
 */
@Injectable()
export class KnowledgeSearch {
  private readonly logger = new Logger(KnowledgeSearch.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly lexical: LexicalRanking,
    private readonly vectors: VectorRanking,
    private readonly embeddings: EmbeddingsClient,
  ) {}

  /**
   * One search, as a `knowledge query` span: the bases, top_k, how it ranked (`hybrid`, or `lexical`
   * alone: no embeddings model, or it failed) and the hit count; the query text only while content
   * capture is on.
   */
  query(search: KbQuery): Promise<KbHit[]> {
    return inSpan(
      'knowledge query',
      {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR.knowledgeKbIds]: search.kbIds, [ATTR.knowledgeTopK]: search.topK },
      },
      async (span) => {
        if (search.kbIds.length === 1) span.setAttribute(ATTR.genAiDataSourceId, search.kbIds[0]);
        setContentAttribute(span, ATTR.genAiRetrievalQueryText, () => search.query);
        const hits = await this.search(search, span);
        span.setAttribute(ATTR.knowledgeHits, hits.length);
        return hits;
      },
    );
  }

  private async search({ kbIds: given, query, topK, fileName }: KbQuery, span: Span): Promise<KbHit[]> {
    // Ids that cannot name a base match nothing (and never reach a uuid cast).
    const kbIds = given.filter((id) => isUUID(id));
    if (kbIds.length === 0 || !(topK >= 1)) return [];
    const terms = [...new Set(segment(query))];
    const depth = this.embeddings.enabled ? Math.max(topK, FUSION_DEPTH) : topK;
    const lexical = await this.lexical.rank(kbIds, terms, depth, fileName);
    const ranked = this.embeddings.enabled
      ? await this.hybrid(kbIds, query, depth, fileName, lexical, span)
      : lexical;
    if (ranked === lexical) span.setAttribute(ATTR.knowledgeMode, 'lexical');
    return this.hits(ranked.slice(0, topK));
  }

  private async hybrid(
    kbIds: string[],
    query: string,
    depth: number,
    fileName: string | undefined,
    lexical: RankedChunk[],
    span: Span,
  ): Promise<RankedChunk[]> {
    if (query.trim() === '') return lexical;
    try {
      const [vector] = await this.embeddings.embed([query]);
      const semantic = await this.vectors.rank(kbIds, vector, depth, fileName);
      span.setAttribute(ATTR.knowledgeMode, 'hybrid');
      return reciprocalRankFusion([lexical, semantic]);
    } catch (error) {
      this.logger.warn({ err: error }, 'embeddings unavailable: lexical ranking only');
      span.addEvent(KnowledgeErrorCode.EMBEDDINGS_FAILED);
      return lexical;
    }
  }

  private async hits(ranked: RankedChunk[]): Promise<KbHit[]> {
    if (ranked.length === 0) return [];
    const rows = await this.dataSource.query<Array<Omit<KbHit, 'score'> & { id: string }>>(HITS_SQL, [
      ranked.map((chunk) => chunk.id),
    ]);
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ranked.flatMap(({ id, score }) => {
      const row = byId.get(id);
      return row === undefined
        ? []
        : [
            {
              kbId: row.kbId,
              fileId: row.fileId,
              filename: row.filename,
              chunkIndex: row.chunkIndex,
              content: row.content,
              score,
            },
          ];
    });
  }
}
