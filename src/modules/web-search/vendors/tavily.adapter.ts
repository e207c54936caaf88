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
} from './vendor-adapter.js';
import { VendorHttp } from './vendor-http.js';

/** Tavily's `max_results` range. */
export const TAVILY_MAX_RESULTS = 20;
/** Tavily scores are relevance in [0, 1]. */
const SCORE_MAX = 1;
const NAMED_RANGES = { OneDay: 'day', OneWeek: 'week', OneMonth: 'month', OneYear: 'year' } as const;

const searchAnswer = z.looseObject({
  results: z.array(
    z.looseObject({
      title: z.string().nullish(),
      url: z.string(),
      content: z.string().nullish(),
      score: z.unknown(),
      raw_content: z.string().nullish(),
      published_date: z.string().nullish(),
    }),
  ),
});

const extractAnswer = z.looseObject({
  results: z.array(z.looseObject({ url: z.string(), raw_content: z.string().nullish() })).default([]),
  failed_results: z
    .array(z.looseObject({ url: z.string().nullish(), error: z.string().nullish() }))
    .default([]),
});

/**
 * Tavily: `POST /search` and `POST /extract` with `Authorization: Bearer <key>`. Search results carry
 * `content` (the most relevant part of the page, chunks joined by ` [...] `), `score` in [0, 1] and,
 * when asked, `raw_content` in the requested format; extract answers `{results, failed_results}`.
 */
@Injectable()
export class TavilyAdapter implements SearchAdapter, FetchAdapter {
  readonly name = 'tavily' as const;

  constructor(private readonly http: VendorHttp) {}

  async search(access: VendorAccess, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    if (query.count > TAVILY_MAX_RESULTS) {
      throw WebSearchErrors.invalidArgument(this.name, 'count', `at most ${TAVILY_MAX_RESULTS} results`);
    }
    const body: Record<string, unknown> = {
      query: query.query,
      max_results: query.count,
      search_depth: 'basic',
      topic: 'general',
      include_answer: false,
      include_images: false,
      include_raw_content: query.includeContent ? query.contentFormat : false,
    };
    if (query.sites.length > 0) body.include_domains = query.sites;
    if (query.blockHosts.length > 0) body.exclude_domains = query.blockHosts;
    if (query.timeRange?.kind === 'named') body.time_range = NAMED_RANGES[query.timeRange.name];
    if (query.timeRange?.kind === 'dates') {
      body.start_date = query.timeRange.from;
      body.end_date = query.timeRange.to;
    }
    const parsed = searchAnswer.safeParse(
      await this.http.postJson(this.name, access, '/search', body, signal),
    );
    if (!parsed.success) throw WebSearchErrors.vendorBadResponse(this.name, 'no "results" list');
    return parsed.data.results.map((r) => {
      const text = r.content ?? '';
      const hit: SearchHit = {
        title: r.title ?? '',
        url: r.url,
        summary: text,
        snippets: text.split(' [...] ').filter(hasText),
        score: scoreOf(r.score),
        score_max: SCORE_MAX,
      };
      if (query.includeContent && hasText(r.raw_content)) hit.content = r.raw_content;
      if (hasText(r.published_date)) hit.published_at = r.published_date;
      return hit;
    });
  }

  async fetch(access: VendorAccess, url: string, signal?: AbortSignal): Promise<FetchedPage> {
    const body = { urls: [url], extract_depth: 'basic', format: 'markdown', include_images: false };
    const parsed = extractAnswer.safeParse(
      await this.http.postJson(this.name, access, '/extract', body, signal),
    );
    if (!parsed.success) throw WebSearchErrors.vendorBadResponse(this.name, 'no "results" list');
    const page = parsed.data.results.find((r) => hasText(r.raw_content));
    if (page === undefined) {
      const failure = parsed.data.failed_results.find((f) => hasText(f.error))?.error;
      throw WebSearchErrors.fetchNoContent(this.name, url, failure ?? 'the page has no extractable text');
    }
    return { title: '', content: page.raw_content! };
  }
}
