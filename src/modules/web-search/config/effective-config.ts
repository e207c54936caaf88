import type { DomainError } from '../../../common/errors/index.js';
import { type WebCapability, WebSearchErrors } from '../web-search.errors.js';
import {
  FETCH_PROVIDERS,
  type FetchChoice,
  type FetchProvider,
  SEARCH_PROVIDERS,
  type SearchChoice,
  type SearchProvider,
  type VendorAccess,
  type VendorName,
  VENDORS,
} from '../web-search.types.js';

export type KeySource = 'settings' | 'env' | 'none';

/** One vendor's key as it applies now: a saved key wins over the environment variable. */
export interface EffectiveKey {
  key: string | null;
  source: KeySource;
}

export interface WebSearchInputs {
  searchProvider: SearchChoice;
  fetchProvider: FetchChoice;
  /** Saved (decrypted) keys. */
  savedKeys: Partial<Record<VendorName, string>>;
  envKeys: Partial<Record<VendorName, string>>;
  baseUrls: Record<VendorName, string>;
}

export type Resolved<P extends VendorName> =
  | { available: true; provider: P; access: VendorAccess }
  | { available: false; reason: string; error: DomainError };

export interface EffectiveWebConfig {
  search: Resolved<SearchProvider>;
  fetch: Resolved<FetchProvider>;
  keys: Record<VendorName, EffectiveKey>;
}

export function effectiveKeys(inputs: WebSearchInputs): Record<VendorName, EffectiveKey> {
  const keys = {} as Record<VendorName, EffectiveKey>;
  for (const vendor of VENDORS) {
    const saved = inputs.savedKeys[vendor];
    const env = inputs.envKeys[vendor];
    keys[vendor] =
      saved !== undefined && saved !== ''
        ? { key: saved, source: 'settings' }
        : env !== undefined && env !== ''
          ? { key: env, source: 'env' }
          : { key: null, source: 'none' };
  }
  return keys;
}

function resolve<P extends VendorName>(
  capability: WebCapability,
  choice: 'auto' | 'none' | P,
  order: readonly P[],
  keys: Record<VendorName, EffectiveKey>,
  baseUrls: Record<VendorName, string>,
): Resolved<P> {
  const ready = (provider: P): Resolved<P> => ({
    available: true,
    provider,
    access: { apiKey: keys[provider].key!, baseUrl: baseUrls[provider] },
  });
  if (choice === 'none') {
    const reason = `web ${capability} is switched off (${capability}_provider: none)`;
    return { available: false, reason, error: WebSearchErrors.notConfigured(capability, reason) };
  }
  if (choice === 'auto') {
    const provider = order.find((p) => keys[p].key !== null);
    if (provider !== undefined) return ready(provider);
    const reason = `no ${capability} provider has an API key (${order.join(', ')})`;
    return { available: false, reason, error: WebSearchErrors.notConfigured(capability, reason) };
  }
  if (keys[choice].key === null) {
    return {
      available: false,
      reason: `the selected ${capability} provider ${choice} has no API key`,
      error: WebSearchErrors.providerNotConfigured(capability, choice),
    };
  }
  return ready(choice);
}

/**
 * The effective providers: `auto` takes the first provider with a key in the documented order
 * (search: Tavily, DeepSeek, Doubao; fetch: Tavily, DeepSeek); an explicit provider without a key is
 * unavailable, never replaced by another one.
 */
export function effectiveConfig(inputs: WebSearchInputs): EffectiveWebConfig {
  const keys = effectiveKeys(inputs);
  return {
    search: resolve('search', inputs.searchProvider, SEARCH_PROVIDERS, keys, inputs.baseUrls),
    fetch: resolve('fetch', inputs.fetchProvider, FETCH_PROVIDERS, keys, inputs.baseUrls),
    keys,
  };
}

export type { FetchProvider, SearchProvider };
export const isFetchProvider = (p: string): p is FetchProvider =>
  (FETCH_PROVIDERS as readonly string[]).includes(p);
export const isSearchProvider = (p: string): p is SearchProvider =>
  (SEARCH_PROVIDERS as readonly string[]).includes(p);
