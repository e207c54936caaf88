import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { WebSearchErrors } from '../web-search.errors.js';
import type { SearchHit, SearchQuery, VendorAccess } from '../web-search.types.js';
import { hasText, scoreOf, type SearchAdapter } from './vendor-adapter.js';
import { VendorHttp } from './vendor-http.js';
import { withoutKey } from './vendor-http.js';

/** `RankScore` is a relevance in [0, 1]. */
const SCORE_MAX = 1;

const answer = z.looseObject({
  ResponseMetadata: z
    .looseObject({
      Error: z
        .looseObject({ Code: z.union([z.string(), z.number()]).nullish(), Message: z.string().nullish() })
        .nullish(),
    })
    .nullish(),
  Result: z
    .looseObject({
      WebResults: z
        .array(
          z.looseObject({
            Title: z.string().nullish(),
            Url: z.string().nullish(),
            Snippet: z.string().nullish(),
            Summary: z.string().nullish(),
            Content: z.string().nullish(),
            RankScore: z.unknown(),
            PublishTime: z.string().nullish(),
          }),
        )
        .nullish(),
    })
    .nullish(),
});

/**
 * Doubao search, Custom edition (Volcengine): `POST /search_api/web_search` with
 * `Authorization: Bearer <key>`, body `{Query, SearchType:"web", Count, Filter:{NeedUrl, NeedContent,
 * Sites, BlockHosts}, TimeRange, NeedSummary, ContentFormats}` (lists joined by `|`). The answer is
 * `{ResponseMetadata:{Error?}, Result:{WebResults:[{Title, Url, Snippet, Summary, Content, RankScore,
 * PublishTime, …}]}}`; an error may come with HTTP 200. Search only: its summaries are no page fetch.
 */
@Injectable()
export class DoubaoAdapter implements SearchAdapter {
  readonly name = 'doubao' as const;

  constructor(private readonly http: VendorHttp) {}

  async search(access: VendorAccess, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]> {
    const filter: Record<string, unknown> = { NeedUrl: true, NeedContent: query.includeContent };
    if (query.sites.length > 0) filter.Sites = query.sites.join('|');
    if (query.blockHosts.length > 0) filter.BlockHosts = query.blockHosts.join('|');
    const body: Record<string, unknown> = {
      Query: query.query,
      SearchType: 'web',
      Count: query.count,
      Filter: filter,
      NeedSummary: true,
    };
    if (query.includeContent) body.ContentFormats = query.contentFormat;
    if (query.timeRange?.kind === 'named') body.TimeRange = query.timeRange.name;
    if (query.timeRange?.kind === 'dates') body.TimeRange = `${query.timeRange.from}..${query.timeRange.to}`;

    const parsed = answer.safeParse(
      await this.http.postJson(this.name, access, '/search_api/web_search', body, signal),
    );
    if (!parsed.success) throw WebSearchErrors.vendorBadResponse(this.name, 'no "Result" object');
    const error = parsed.data.ResponseMetadata?.Error;
    if (error !== null && error !== undefined) {
      const message = `${String(error.Code ?? '')} ${error.Message ?? ''}`.trim();
      throw WebSearchErrors.vendorFailed(
        this.name,
        null,
        withoutKey(message || 'unknown error', access.apiKey),
      );
    }
    return (parsed.data.Result?.WebResults ?? [])
      .filter((r) => hasText(r.Url))
      .map((r) => {
        const hit: SearchHit = {
          title: r.Title ?? '',
          url: r.Url!,
          summary: hasText(r.Summary) ? r.Summary : (r.Snippet ?? ''),
          snippets: hasText(r.Snippet) ? [r.Snippet] : [],
          score: scoreOf(r.RankScore),
          score_max: SCORE_MAX,
        };
        if (query.includeContent && hasText(r.Content)) hit.content = r.Content;
        if (hasText(r.PublishTime)) hit.published_at = r.PublishTime;
        return hit;
      });
  }
}
