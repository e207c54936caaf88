import { Injectable } from '@nestjs/common';
import type { Resolved } from './config/effective-config.js';
import { WebSearchConfig } from './config/web-search-config.js';
import { DeepSeekAdapter } from './vendors/deepseek.adapter.js';
import { DoubaoAdapter } from './vendors/doubao.adapter.js';
import { TavilyAdapter } from './vendors/tavily.adapter.js';
import type { FetchAdapter, SearchAdapter } from './vendors/vendor-adapter.js';
import type {
  FetchOutcome,
  FetchProvider,
  SearchOutcome,
  SearchProvider,
  SearchQuery,
  VendorAccess,
} from './web-search.types.js';

/**
 * Runs one search or fetch against one provider. The effective configuration is read for every call;
 * an unavailable provider or a failing vendor call is an error for the caller, never a retry on
 * another provider.
 */
@Injectable()
export class WebSearchService {
  private readonly searchers: Record<SearchProvider, SearchAdapter>;
  private readonly fetchers: Record<FetchProvider, FetchAdapter>;

  constructor(
    private readonly config: WebSearchConfig,
    tavily: TavilyAdapter,
    deepseek: DeepSeekAdapter,
    doubao: DoubaoAdapter,
  ) {
    this.searchers = { tavily, deepseek, doubao };
    this.fetchers = { tavily, deepseek };
  }

  async search(query: SearchQuery, signal?: AbortSignal): Promise<SearchOutcome> {
    const { provider, access } = ready((await this.config.current()).search);
    return this.searchWith(provider, access, query, signal);
  }

  async fetch(url: string, signal?: AbortSignal): Promise<FetchOutcome> {
    const { provider, access } = ready((await this.config.current()).fetch);
    return this.fetchWith(provider, access, url, signal);
  }

  /** One call with the given provider and access (also the settings API's test call). */
  async searchWith(
    provider: SearchProvider,
    access: VendorAccess,
    query: SearchQuery,
    signal?: AbortSignal,
  ): Promise<SearchOutcome> {
    const results = await this.searchers[provider].search(access, query, signal);
    return { provider, query: query.query, results };
  }

  async fetchWith(
    provider: FetchProvider,
    access: VendorAccess,
    url: string,
    signal?: AbortSignal,
  ): Promise<FetchOutcome> {
    const page = await this.fetchers[provider].fetch(access, url, signal);
    return { provider, url, title: page.title, content: page.content };
  }
}

function ready<P extends SearchProvider | FetchProvider>(resolved: Resolved<P>) {
  if (!resolved.available) throw resolved.error;
  return resolved;
}
