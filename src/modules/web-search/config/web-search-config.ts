import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import type { VendorName } from '../web-search.types.js';
import { effectiveConfig, type EffectiveWebConfig, type WebSearchInputs } from './effective-config.js';
import { WebSearchSettingsStore } from './web-search-settings.store.js';

/**
 * The effective web search configuration, read anew on every call (each tool call, each settings read;
 * once per run assembly), so a saved change reaches every process at once without a cache to go stale.
 */
@Injectable()
export class WebSearchConfig {
  private readonly envKeys: Partial<Record<VendorName, string>>;
  readonly baseUrls: Record<VendorName, string>;

  constructor(
    config: AppConfig,
    private readonly store: WebSearchSettingsStore,
  ) {
    const { tavily, deepseek, doubaoSearch } = config.vendors;
    this.envKeys = {
      ...(tavily.apiKey === null ? {} : { tavily: tavily.apiKey.reveal() }),
      ...(deepseek.apiKey === null ? {} : { deepseek: deepseek.apiKey.reveal() }),
      ...(doubaoSearch.apiKey === null ? {} : { doubao: doubaoSearch.apiKey.reveal() }),
    };
    this.baseUrls = { tavily: tavily.baseUrl, deepseek: deepseek.baseUrl, doubao: doubaoSearch.baseUrl };
  }

  async inputs(): Promise<WebSearchInputs> {
    const stored = await this.store.read();
    return { ...stored, envKeys: this.envKeys, baseUrls: this.baseUrls };
  }

  async current(): Promise<EffectiveWebConfig> {
    return effectiveConfig(await this.inputs());
  }
}
