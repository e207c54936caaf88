import { Injectable } from '@nestjs/common';
import type { ShareActor } from '../../../common/sharing/index.js';
import { KnowledgeBasesService } from '../bases/knowledge-bases.service.js';
import {
  DEFAULT_TOP_K,
  type KnowledgeQueryDto,
  type KnowledgeQueryResultDto,
} from '../dto/knowledge-query.dto.js';
import { KnowledgeSearch } from './knowledge-search.js';

/** `POST /api/knowledge-bases/:kb_id/query`: a reader's search of one base. */
@Injectable()
export class KnowledgeQueryService {
  constructor(
    private readonly kbs: KnowledgeBasesService,
    private readonly search: KnowledgeSearch,
  ) {}

  async query(actor: ShareActor, kbId: string, body: KnowledgeQueryDto): Promise<KnowledgeQueryResultDto> {
    await this.kbs.readable(actor, kbId);
    const hits = await this.search.query({
      kbIds: [kbId],
      query: body.query,
      topK: body.top_k ?? DEFAULT_TOP_K,
      ...(body.file_name === undefined ? {} : { fileName: body.file_name }),
    });
    return {
      items: hits.map((hit) => ({
        kb_id: hit.kbId,
        file_id: hit.fileId,
        filename: hit.filename,
        chunk_index: hit.chunkIndex,
        content: hit.content,
        score: hit.score,
      })),
    };
  }
}
