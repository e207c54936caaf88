/** Vendors with an adapter. Endpoints are fixed per vendor; only the base URL is a deployment setting. */
export const VENDORS = ['tavily', 'deepseek', 'doubao'] as const;
export type VendorName = (typeof VENDORS)[number];

/** Search providers, in the order `auto` tries them (the first with a key wins). */
export const SEARCH_PROVIDERS = ['tavily', 'deepseek', 'doubao'] as const satisfies readonly VendorName[];
/** Fetch providers, in the order `auto` tries them. Doubao has no fetch: its summaries are no page. */
export const FETCH_PROVIDERS = ['tavily', 'deepseek'] as const satisfies readonly VendorName[];
export type SearchProvider = (typeof SEARCH_PROVIDERS)[number];
export type FetchProvider = (typeof FETCH_PROVIDERS)[number];

export const SEARCH_CHOICES = ['auto', 'none', ...SEARCH_PROVIDERS] as const;
export const FETCH_CHOICES = ['auto', 'none', ...FETCH_PROVIDERS] as const;
export type SearchChoice = (typeof SEARCH_CHOICES)[number];
export type FetchChoice = (typeof FETCH_CHOICES)[number];

export const TIME_RANGES = ['OneDay', 'OneWeek', 'OneMonth', 'OneYear'] as const;
export type NamedTimeRange = (typeof TIME_RANGES)[number];
/** A named range, or an inclusive date range. */
export type TimeRange = { kind: 'named'; name: NamedTimeRange } | { kind: 'dates'; from: string; to: string };

/** What `web_search` asks a vendor for, validated. */
export interface SearchQuery {
  query: string;
  count: number;
  timeRange: TimeRange | null;
  sites: string[];
  blockHosts: string[];
  includeContent: boolean;
  contentFormat: 'text' | 'markdown';
}

export interface SearchHit {
  title: string;
  url: string;
  summary: string;
  snippets: string[];
  content?: string;
  /** The provider's own score, on its own scale. */
  score: number | null;
  score_max: number;
  published_at?: string;
}

export interface SearchOutcome {
  provider: SearchProvider;
  query: string;
  results: SearchHit[];
}

export interface FetchOutcome {
  provider: FetchProvider;
  url: string;
  title: string;
  /** Markdown. */
  content: string;
}

/** One vendor call's credentials and endpoint. */
export interface VendorAccess {
  apiKey: string;
  baseUrl: string;
}
