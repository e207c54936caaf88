import { truncate } from '../../../../common/text/truncate.js';
import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { VerifiedDelegation } from '../../delegation/knowledge-delegation.js';
import { KnowledgeMcpErrors } from '../../knowledge.errors.js';
import { KnowledgeSearch } from '../../search/knowledge-search.js';
import { KbDocumentsRepository, type KbDocument } from '../kb-documents.repository.js';
import { KnowledgeScope } from '../knowledge-scope.js';
import { documentLines, literalMatches, matchWindows, numberedLine } from './document-lines.js';
import {
  KB_TOOL_LIMITS,
  type FIND_KB_DOCUMENT_INPUT,
  type OPEN_KB_DOCUMENT_INPUT,
  type QUERY_KB_INPUT,
  type SEARCH_FILE_INPUT,
} from './kb-tool-schemas.js';
import { regexLineMatches } from './regex-line-search.js';

type Args<T extends Record<string, z.ZodType>> = z.infer<z.ZodObject<T>>;

/**
 * The five knowledge tools. Each call re-checks its targets through `KnowledgeScope` (account, read
 * rule, the run's knowledge bases) before reading anything; answers carry ids and text, never paths.
 */
@Injectable()
export class KnowledgeTools {
  constructor(
    private readonly scope: KnowledgeScope,
    private readonly search: KnowledgeSearch,
    private readonly documents: KbDocumentsRepository,
  ) {}

  async listKbs(grant: VerifiedDelegation) {
    const kbs = await this.scope.visibleKbs(grant);
    return {
      knowledge_bases: kbs.map((kb) => ({ kb_id: kb.kbId, name: kb.name, description: kb.description })),
    };
  }

  async queryKb(grant: VerifiedDelegation, args: Args<typeof QUERY_KB_INPUT>) {
    const kb = await this.scope.kb(grant, args.kb_id);
    const hits = await this.search.query({
      kbIds: [kb.kbId],
      query: args.query,
      topK: args.top_k,
      ...(args.file_name === undefined ? {} : { fileName: args.file_name }),
    });
    return {
      kb_id: kb.kbId,
      results: hits.map((hit) => ({
        kb_id: hit.kbId,
        file_id: hit.fileId,
        filename: hit.filename,
        chunk_index: hit.chunkIndex,
        content: hit.content,
        score: hit.score,
      })),
    };
  }

  async findKbDocument(grant: VerifiedDelegation, args: Args<typeof FIND_KB_DOCUMENT_INPUT>) {
    const document = readable(await this.scope.document(grant, args.kb_id, args.file_id));
    const lines = documentLines(document.markdown);
    const matches = args.use_regex
      ? await regexLineMatches(lines, args.patterns, args.case_sensitive, KB_TOOL_LIMITS.regexBudgetMs)
      : literalMatches(lines, args.patterns, args.case_sensitive);
    const { windows, hasMore } = matchWindows(lines, matches, args.window_size, args.max_windows);
    return {
      kb_id: document.kbId,
      file_id: document.fileId,
      filename: document.filename,
      total_lines: lines.length,
      total_matches: matches.length,
      windows,
      has_more: hasMore,
    };
  }

  async openKbDocument(grant: VerifiedDelegation, args: Args<typeof OPEN_KB_DOCUMENT_INPUT>) {
    const document = readable(await this.scope.document(grant, args.kb_id, args.file_id));
    const lines = documentLines(document.markdown);
    const first = Math.min(args.line !== undefined ? args.line - 1 : (args.offset ?? 0), lines.length);
    const shown: string[] = [];
    let used = 0;
    let next = first;
    while (next < lines.length) {
      const line = numberedLine(next + 1, lines[next]);
      if (shown.length > 0 && used + line.length + 1 > args.window_size) break;
      // A single line longer than the window is cut to it, so one answer is always bounded.
      shown.push(truncate(line, args.window_size));
      used += line.length + 1;
      next++;
    }
    return {
      kb_id: document.kbId,
      file_id: document.fileId,
      filename: document.filename,
      // 1-based and inclusive; past the end the range is empty (end_line = start_line - 1).
      start_line: first + 1,
      end_line: next,
      total_lines: lines.length,
      has_more_before: first > 0,
      has_more_after: next < lines.length,
      next_offset: next < lines.length ? next : null,
      content: shown.join('\n'),
    };
  }

  async searchFile(grant: VerifiedDelegation, args: Args<typeof SEARCH_FILE_INPUT>) {
    const kbIds =
      args.kb_id === undefined
        ? (await this.scope.visibleKbs(grant)).map((kb) => kb.kbId)
        : [(await this.scope.kb(grant, args.kb_id)).kbId];
    const page = await this.documents.searchByName(kbIds, args.query, args.offset, args.limit);
    return {
      files: page.items,
      total: page.total,
      offset: args.offset,
      has_more: page.hasMore,
      next_offset: page.hasMore ? args.offset + page.items.length : null,
    };
  }
}

function readable(document: KbDocument): KbDocument & { markdown: string } {
  if (document.markdown === null) throw KnowledgeMcpErrors.fileNotReady(document.fileId, document.status);
  return document as KbDocument & { markdown: string };
}
