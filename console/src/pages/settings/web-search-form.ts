import type {
  FetchProvider,
  SearchProvider,
  WebSearchSettings,
  WebSearchSettingsChanges,
  WebSearchTest,
  WebVendor,
} from '../../api/types';
import { WEB_VENDORS } from '../../api/types';

/** What the user edits for one vendor: a new key typed (never shown back), or "clear the saved one". */
export interface KeyDraft {
  value: string;
  clear: boolean;
}

export interface WebSearchForm {
  searchProvider: SearchProvider;
  fetchProvider: FetchProvider;
  keys: Record<WebVendor, KeyDraft>;
}

/** The form as the saved settings leave it: the saved providers, no key typed, nothing to clear. */
export function webSearchForm(settings: WebSearchSettings): WebSearchForm {
  return {
    searchProvider: settings.search_provider,
    fetchProvider: settings.fetch_provider,
    keys: Object.fromEntries(WEB_VENDORS.map((vendor) => [vendor, { value: '', clear: false }])) as Record<
      WebVendor,
      KeyDraft
    >,
  };
}

/** A typed key as the service takes it: surrounding spaces (a paste) dropped; '' is no key typed. */
export function typedKey(draft: KeyDraft): string {
  return draft.value.trim();
}

/**
 * The PUT body: only what differs from the saved settings. A typed key replaces the saved one; "clear"
 * sends `null` (the environment's key applies again). `null` when nothing changed (no call to make).
 */
export function webSearchChanges(
  saved: WebSearchSettings,
  form: WebSearchForm,
): WebSearchSettingsChanges | null {
  const changes: WebSearchSettingsChanges = {};
  if (form.searchProvider !== saved.search_provider) changes.search_provider = form.searchProvider;
  if (form.fetchProvider !== saved.fetch_provider) changes.fetch_provider = form.fetchProvider;
  const keys: Partial<Record<WebVendor, string | null>> = {};
  for (const vendor of WEB_VENDORS) {
    const draft = form.keys[vendor];
    const key = typedKey(draft);
    if (key !== '') keys[vendor] = key;
    else if (draft.clear && saved.providers[vendor].source === 'settings') keys[vendor] = null;
  }
  if (Object.keys(keys).length > 0) changes.api_keys = keys;
  return Object.keys(changes).length > 0 ? changes : null;
}

/** Vendors that fetch pages (Doubao only searches). */
export const FETCH_VENDORS: readonly WebVendor[] = ['tavily', 'deepseek'];

export interface TestForm {
  kind: 'search' | 'fetch';
  provider: WebVendor;
  query: string;
  url: string;
}

/** The vendors a test of this kind may name. */
export function testVendors(kind: TestForm['kind']): readonly WebVendor[] {
  return kind === 'fetch' ? FETCH_VENDORS : WEB_VENDORS;
}

/**
 * The test call: the key typed for that vendor in the form (used for this call only, never saved),
 * or none (the service then uses the vendor's current key); the query or the URL when one is given.
 */
export function testBody(test: TestForm, form: WebSearchForm): WebSearchTest {
  const key = typedKey(form.keys[test.provider]);
  const body: WebSearchTest = { kind: test.kind, provider: test.provider };
  if (key !== '') body.api_key = key;
  const subject = (test.kind === 'search' ? test.query : test.url).trim();
  if (subject !== '') body[test.kind === 'search' ? 'query' : 'url'] = subject;
  return body;
}
