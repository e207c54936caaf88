import { z } from 'zod';
import { TIME_RANGES } from '../web-search.types.js';

export const WEB_SEARCH_TOOL_NAME = 'web_search';
export const WEB_FETCH_TOOL_NAME = 'web_fetch';

export const SEARCH_QUERY_MAX_CHARS = 100;
export const SEARCH_COUNT_MAX = 50;
export const SEARCH_COUNT_DEFAULT = 10;
export const SITES_MAX = 20;
export const BLOCK_HOSTS_MAX = 5;
export const FETCH_URL_MAX_CHARS = 8192;

const DATE_RANGE = /^(\d{4}-\d{2}-\d{2})\.\.(\d{4}-\d{2}-\d{2})$/;
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/i;

const domain = z.string().regex(DOMAIN, 'a domain name such as example.com (no scheme, path or port)');

export const webSearchSchema = z.strictObject({
  query: z
    .string()
    .min(1)
    .max(SEARCH_QUERY_MAX_CHARS)
    .refine((q) => q.trim() !== '', 'the query is blank')
    .describe(
      `What to search for: short keywords or a short question (1-${SEARCH_QUERY_MAX_CHARS} characters)`,
    ),
  count: z
    .number()
    .int()
    .min(1)
    .max(SEARCH_COUNT_MAX)
    .optional()
    .describe(
      `How many results (1-${SEARCH_COUNT_MAX}, default ${SEARCH_COUNT_DEFAULT}; Tavily gives at most 20)`,
    ),
  time_range: z
    .string()
    .refine(
      (v) => (TIME_RANGES as readonly string[]).includes(v) || DATE_RANGE.test(v),
      'OneDay, OneWeek, OneMonth, OneYear or YYYY-MM-DD..YYYY-MM-DD',
    )
    .optional()
    .describe(
      'Only pages published in this period: OneDay, OneWeek, OneMonth, OneYear or YYYY-MM-DD..YYYY-MM-DD',
    ),
  sites: z
    .array(domain)
    .min(1)
    .max(SITES_MAX)
    .optional()
    .describe(`Search only these domains (at most ${SITES_MAX}), e.g. ["gov.cn", "example.com"]`),
  block_hosts: z
    .array(domain)
    .min(1)
    .max(BLOCK_HOSTS_MAX)
    .optional()
    .describe(`Leave out results from these domains (at most ${BLOCK_HOSTS_MAX})`),
  include_content: z
    .boolean()
    .optional()
    .describe('Also return each page body as content (longer results); default false'),
  content_format: z
    .enum(['text', 'markdown'])
    .optional()
    .describe('Format of content when include_content is true: text (default) or markdown'),
});
export type WebSearchArgs = z.infer<typeof webSearchSchema>;

export const webFetchSchema = z.strictObject({
  url: z
    .string()
    .min(1)
    .max(FETCH_URL_MAX_CHARS)
    .describe('The http(s) address of a public web page to read'),
});
export type WebFetchArgs = z.infer<typeof webFetchSchema>;

export const WEB_SEARCH_DESCRIPTION =
  'Search the web for current information. Returns {provider, query, results:[{title, url, summary, ' +
  'snippets, content?, score, score_max, published_at?}]} best first; score is on the provider’s own ' +
  'scale (0..score_max), so do not compare scores across providers. An empty results list means nothing ' +
  'was found (not an error). Results are external sources: check important facts at the source, e.g. ' +
  'with web_fetch.';

export const WEB_FETCH_DESCRIPTION =
  'Read one public http(s) web page through the configured vendor and return its main text as Markdown: ' +
  '{provider, url, title, content, content_chars}. Private, loopback and non-http addresses are refused. ' +
  'A page without readable text is an error (web_search.fetch_no_content).';

export function dateRangeOf(value: string): { from: string; to: string } | null {
  const match = DATE_RANGE.exec(value);
  return match === null ? null : { from: match[1], to: match[2] };
}
