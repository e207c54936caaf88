import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { redactSecret } from '../../../common/crypto/redact-secret.js';
import { DomainError } from '../../../common/errors/index.js';
import { effectiveKeys, isFetchProvider } from '../config/effective-config.js';
import { WebSearchConfig } from '../config/web-search-config.js';
import { WebSearchSettingsStore } from '../config/web-search-settings.store.js';
import type {
  TestWebSearchDto,
  UpdateWebSearchSettingsDto,
  WebSearchSettingsDto,
  WebSearchTestResultDto,
} from '../dto/web-search-settings.dto.js';
import { checkFetchUrl } from '../tools/fetch-url-policy.js';
import { searchQueryOf } from '../tools/web-tools.js';
import { WebSearchErrors } from '../web-search.errors.js';
import { WebSearchService } from '../web-search.service.js';
import { VENDORS } from '../web-search.types.js';

const DEFAULT_TEST_QUERY = 'latest news';
const DEFAULT_TEST_URL = 'https://example.com/';

/** `GET/PUT /api/system/settings/web-search` and its test call. */
@Injectable()
export class WebSearchSettingsService {
  constructor(
    private readonly store: WebSearchSettingsStore,
    private readonly config: WebSearchConfig,
    private readonly web: WebSearchService,
  ) {}

  async view(): Promise<WebSearchSettingsDto> {
    const inputs = await this.config.inputs();
    const keys = effectiveKeys(inputs);
    const providers = Object.fromEntries(
      VENDORS.map((vendor) => {
        const { key, source } = keys[vendor];
        return [
          vendor,
          { has_key: key !== null, key_preview: key === null ? null : redactSecret(key), source },
        ];
      }),
    ) as unknown as WebSearchSettingsDto['providers'];
    return { search_provider: inputs.searchProvider, fetch_provider: inputs.fetchProvider, providers };
  }

  async update(actor: AuthenticatedUser, body: UpdateWebSearchSettingsDto): Promise<WebSearchSettingsDto> {
    await this.store.update(
      {
        searchProvider: body.search_provider,
        fetchProvider: body.fetch_provider,
        apiKeys: body.api_keys === undefined ? undefined : { ...body.api_keys },
      },
      actor.id,
    );
    return this.view();
  }

  /** One real vendor call with the draft key (or the effective one); nothing is saved. */
  async test(body: TestWebSearchDto): Promise<WebSearchTestResultDto> {
    const { kind, provider } = body;
    if (kind === 'fetch' && !isFetchProvider(provider))
      throw WebSearchErrors.providerNotSupported('fetch', provider);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const inputs = await this.config.inputs();
      const apiKey = body.api_key ?? effectiveKeys(inputs)[provider].key;
      if (apiKey === null) throw WebSearchErrors.providerNotConfigured(kind, provider);
      const access = { apiKey, baseUrl: inputs.baseUrls[provider] };
      if (kind === 'search') {
        const query = searchQueryOf({ query: body.query ?? DEFAULT_TEST_QUERY, count: 3 });
        const outcome = await this.web.searchWith(provider, access, query);
        return { ok: true, latency_ms: elapsed(), result_count: outcome.results.length };
      }
      const url = checkFetchUrl(body.url ?? DEFAULT_TEST_URL);
      const page = await this.web.fetchWith(provider as 'tavily' | 'deepseek', access, url);
      return { ok: true, latency_ms: elapsed(), content_chars: page.content.length };
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      return { ok: false, latency_ms: elapsed(), error: { code: error.code, message: error.message } };
    }
  }
}
