import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { WebSearchErrors } from '../web-search.errors.js';
import type { SearchHit, SearchQuery, VendorAccess } from '../web-search.types.js';
import {
  type FetchAdapter,
  type FetchedPage,
  hasText,
  scoreOf,
  type SearchAdapter,
  timeRangeDates,
} from './vendor-adapter.js';
import { VendorHttp } from './vendor-http.js';

/** DeepSeek's query limit, operators included. */
export const DEEPSEEK_MAX_QUERY_CHARS = 128;
/** `rerank_score` is on a 0-3 scale. */
const SCORE_MAX = 3;

const searchAnswer = z.looseObject({
  results: z
    .array(
      z.looseObject({
        title: z.string().nullish(),
        url: z.string(),
        snippet: z.string().nullish(),
        summary: z.string().nullish(),
        content: z.string().nullish(),
        rerank_score: z.unknown(),
        date: z.string().nullish(),
      }),
    )
    .nullish(),
});

const fetchAnswer = z.looseObject({ title: z.string().nullish(), content: z.string().nullish() });

/** Sites, blocked hosts and the time range as DeepSeek query operators. */
export function deepseekQuery(query: SearchQuery): string {
  const parts = [query.query];
  if (query.sites.length > 0) parts.push(query.sites.map((s) => `site:${s}`).join(' OR '));
  for (const host of query.blockHosts) parts.push(`-site:${host}`);
  if (query.timeRange !== null) {
    const { from, to } = timeRangeDates(query.timeRange);
    parts.push(`after:${from}`, `before:${to}`);
  }
  return parts.join(' ');
}

/**
 * DeepSeek Search and Fetch: `POST /v1/tools/search` `{query, count, need_content}` →
 * `{results:[{title, url, snippet, summary, content, rerank_score, date, …}]}`, and
 * `POST /v1/tools/fetch` `{url}` → `{title, content}` (Markdown), on the chat API's base URL with the
 * same Bearer key. Filters are query operators (`site:`, `-site:`, `after:`, `before:`).
 */
@Injectable()
export class DeepSeekAdapter implements SearchAdapter, FetchAdapter {
  readonly name = 'deepseek' as const;

  constructor(private readonly http: VendorHttp) {}

  async search(access: VendorAccess, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    if (query.includeContent && query.contentFormat !== 'markdown') {
      throw WebSearchErrors.invalidArgument(
        this.name,
        'content_format',
        'page content comes as markdown only',
      );
    }
    const text = deepseekQuery(query);
    if ([...text].length > DEEPSEEK_MAX_QUERY_CHARS) {
      throw WebSearchErrors.invalidArgument(
        this.name,
        'query',
        `with its site and time operators the query exceeds ${DEEPSEEK_MAX_QUERY_CHARS} characters`,
      );
    }
    const body = { query: text, count: query.count, need_content: query.includeContent };
    const answer = await this.http.postJson(this.name, access, '/v1/tools/search', body, signal);
    const parsed = searchAnswer.safeParse(answer);
    if (!parsed.success) throw WebSearchErrors.vendorBadResponse(this.name, 'no "results" list');
    return (parsed.data.results ?? []).map((r) => {
      const hit: SearchHit = {
        title: r.title ?? '',
        url: r.url,
        summary: hasText(r.summary) ? r.summary : (r.snippet ?? ''),
        snippets: hasText(r.snippet) ? [r.snippet] : [],
        score: scoreOf(r.rerank_score),
        score_max: SCORE_MAX,
      };
      if (query.includeContent && hasText(r.content)) hit.content = r.content;
      if (hasText(r.date)) hit.published_at = r.date;
      return hit;
    });
  }

  async fetch(access: VendorAccess, url: string, signal?: AbortSignal): Promise<FetchedPage> {
    const answer = await this.http.postJson(this.name, access, '/v1/tools/fetch', { url }, signal);
    const parsed = fetchAnswer.safeParse(answer);
    if (!parsed.success) throw WebSearchErrors.vendorBadResponse(this.name, 'no "content" string');
    if (!hasText(parsed.data.content)) {
      throw WebSearchErrors.fetchNoContent(this.name, url, 'the page has no extractable text');
    }
    return { title: parsed.data.title ?? '', content: parsed.data.content };
  }
}
