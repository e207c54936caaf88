export { Allowlist, type AllowlistInput } from './allowlist.js';
export { isBlockedAddress } from './blocked-addresses.js';
export { checkUrlLiteral } from './check-url.js';
export { HttpSafetyErrorCode, HttpSafetyErrors, type UrlRefusalReason } from './http-safety.errors.js';
export { readBodyCapped } from './read-body-capped.js';
export { redactUrl } from './redact-url.js';
export { createSafeDispatcher, type SafeDispatcherOptions } from './safe-dispatcher.js';
export {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_TIMEOUT_MS,
  fetchSafely,
  type SafeFetchOptions,
  type SafeFetchResult,
  type SafeRequestInit,
} from './safe-fetch.js';
export { SafeHttpClient } from './safe-http-client.js';
export { SafeHttpModule } from './safe-http.module.js';
export { createSafeLookup, type ResolveAll } from './safe-lookup.js';
export { SAFE_HTTP_TEST_TRANSPORT, type TestTransport } from './test-transport.js';
export {
  createSafeFetch,
  safeFetch,
  type CreateSafeFetchOptions,
  type FetchLike,
} from './whatwg-safe-fetch.js';
