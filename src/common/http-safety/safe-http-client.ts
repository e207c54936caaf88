import { Inject, Injectable, Optional, type OnModuleDestroy } from '@nestjs/common';
import type { Dispatcher } from 'undici';
import { AppConfig } from '../../config/app-config.js';
import { Allowlist } from './allowlist.js';
import { checkUrlLiteral } from './check-url.js';
import { createSafeDispatcher } from './safe-dispatcher.js';
import { fetchSafely, type SafeFetchResult, type SafeRequestInit } from './safe-fetch.js';
import { SAFE_HTTP_TEST_TRANSPORT, type TestTransport } from './test-transport.js';
import { createSafeFetch, type FetchLike } from './whatwg-safe-fetch.js';

/** The one way the product calls user-supplied URLs (MCP servers, web pages, remote skill sources). */
@Injectable()
export class SafeHttpClient implements OnModuleDestroy {
  readonly allowlist: Allowlist;
  /** For libraries that take an undici dispatcher. */
  readonly dispatcher: Dispatcher;
  /** WHATWG-compatible fetch for libraries that take one (MCP SDK transports). */
  readonly safeFetch: FetchLike;

  constructor(
    config: AppConfig,
    /** Tests only (never provided in production): see `TestTransport`. */
    @Optional() @Inject(SAFE_HTTP_TEST_TRANSPORT) testTransport?: TestTransport,
  ) {
    this.allowlist = Allowlist.from(config.outbound.allowPrivateNetworkTargets);
    this.dispatcher = createSafeDispatcher(this.allowlist, { testTransport });
    this.safeFetch = createSafeFetch({ allowlist: this.allowlist, dispatcher: this.dispatcher });
  }

  fetch(url: string | URL, init?: SafeRequestInit): Promise<SafeFetchResult> {
    return fetchSafely({ dispatcher: this.dispatcher, allowlist: this.allowlist }, url, init);
  }

  /** Validates a URL before storing it (scheme, literal address); throws `http_safety.url_not_allowed`. */
  checkUrl(url: string | URL): URL {
    return checkUrlLiteral(url, this.allowlist);
  }

  async onModuleDestroy(): Promise<void> {
    await this.dispatcher.close();
  }
}
