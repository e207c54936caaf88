import type {
  FetchProvider,
  SearchHit,
  SearchProvider,
  SearchQuery,
  TimeRange,
  VendorAccess,
} from '../web-search.types.js';

export interface SearchAdapter {
  readonly name: SearchProvider;
  search(access: VendorAccess, query: SearchQuery, signal?: AbortSignal): Promise<SearchHit[]>;
}

export interface FetchedPage {
  title: string;
  content: string;
}

export interface FetchAdapter {
  readonly name: FetchProvider;
  fetch(access: VendorAccess, url: string, signal?: AbortSignal): Promise<FetchedPage>;
}

const DAYS = { OneDay: 1, OneWeek: 7, OneMonth: 30, OneYear: 365 } as const;

/** A time range as an inclusive pair of UTC dates (`YYYY-MM-DD`), for vendors that take dates. */
export function timeRangeDates(range: TimeRange, now = new Date()): { from: string; to: string } {
  if (range.kind === 'dates') return { from: range.from, to: range.to };
  const from = new Date(now.getTime() - DAYS[range.name] * 86_400_000);
  return { from: from.toISOString().slice(0, 10), to: now.toISOString().slice(0, 10) };
}

/** Vendors send optional strings as null, "" or absent: one test for "has text". */
export const hasText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A finite number or null (a vendor may omit a score or send it as a string). */
export function scoreOf(value: unknown): number | null {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}
