import { DomainError } from '../../common/errors/domain-error.js';

/** Stable `web_search.*` codes (the tools' errors and the settings API's). */
export const WebSearchErrorCodes = {
  notConfigured: 'web_search.not_configured',
  providerNotConfigured: 'web_search.provider_not_configured',
  providerNotSupported: 'web_search.provider_not_supported',
  invalidArgument: 'web_search.invalid_argument',
  urlNotAllowed: 'web_search.url_not_allowed',
  vendorRejectedKey: 'web_search.vendor_rejected_key',
  vendorRateLimited: 'web_search.vendor_rate_limited',
  vendorFailed: 'web_search.vendor_failed',
  vendorUnreachable: 'web_search.vendor_unreachable',
  vendorBadResponse: 'web_search.vendor_bad_response',
  fetchNoContent: 'web_search.fetch_no_content',
  keyUnreadable: 'web_search.key_unreadable',
} as const;

export type WebSearchErrorCode = (typeof WebSearchErrorCodes)[keyof typeof WebSearchErrorCodes];
export type WebCapability = 'search' | 'fetch';

const C = WebSearchErrorCodes;

/** Vendor text is shown cut short; the caller removes any key from it first. */
const shown = (text: string): string => (text.length > 300 ? `${text.slice(0, 300)}…` : text);

export const WebSearchErrors = {
  notConfigured: (capability: WebCapability, reason: string) =>
    new DomainError('unavailable', C.notConfigured, `Web ${capability} is not available: ${reason}.`, {
      details: { capability },
    }),
  providerNotConfigured: (capability: WebCapability, provider: string) =>
    new DomainError(
      'unavailable',
      C.providerNotConfigured,
      `The ${capability} provider ${provider} has no API key (settings or environment).`,
      { details: { capability, provider } },
    ),
  providerNotSupported: (capability: WebCapability, provider: string) =>
    new DomainError('invalid', C.providerNotSupported, `${provider} does not offer web ${capability}.`, {
      details: { capability, provider },
    }),
  invalidArgument: (provider: string, argument: string, reason: string) =>
    new DomainError('invalid', C.invalidArgument, `${argument}: ${reason} (${provider}).`, {
      details: { provider, argument },
    }),
  urlNotAllowed: (reason: string) =>
    new DomainError('invalid', C.urlNotAllowed, `The URL is refused: ${reason}.`, { details: { reason } }),
  vendorRejectedKey: (provider: string, status: number) =>
    new DomainError('unavailable', C.vendorRejectedKey, `${provider} refused the API key (HTTP ${status}).`, {
      details: { provider, status },
    }),
  vendorRateLimited: (provider: string, status: number) =>
    new DomainError(
      'unavailable',
      C.vendorRateLimited,
      `${provider} refused the call: rate limit or quota (HTTP ${status}).`,
      { details: { provider, status } },
    ),
  vendorFailed: (provider: string, status: number | null, message: string) =>
    new DomainError(
      'unavailable',
      C.vendorFailed,
      `${provider} failed${status === null ? '' : ` (HTTP ${status})`}: ${shown(message)}`,
      { details: { provider, status } },
    ),
  vendorUnreachable: (provider: string, why: string) =>
    new DomainError('unavailable', C.vendorUnreachable, `${provider} could not be reached: ${why}.`, {
      details: { provider },
    }),
  vendorBadResponse: (provider: string, why: string) =>
    new DomainError(
      'unavailable',
      C.vendorBadResponse,
      `${provider} answered in an unexpected form: ${why}.`,
      {
        details: { provider },
      },
    ),
  fetchNoContent: (provider: string, url: string, why: string) =>
    new DomainError(
      'unprocessable',
      C.fetchNoContent,
      `${provider} returned no usable content for the page: ${why}.`,
      {
        details: { provider, url: shown(url) },
      },
    ),
  keyUnreadable: (provider: string) =>
    new DomainError(
      'unavailable',
      C.keyUnreadable,
      `The saved ${provider} API key cannot be decrypted (SECRETS_KEY changed?); save it again.`,
      { details: { provider } },
    ),
  /**
   * A guarded-client failure (`http_safety.*`) as a vendor error, without the deployment's base URL;
   * any other error passes through.
   */
  fromTransport: (provider: string, error: DomainError, timeoutMs: number): DomainError => {
    switch (error.code) {
      case 'http_safety.timeout':
        return WebSearchErrors.vendorUnreachable(provider, `no answer within ${timeoutMs / 1000} s`);
      case 'http_safety.response_too_large':
        return WebSearchErrors.vendorBadResponse(provider, 'the answer is larger than allowed');
      case 'http_safety.too_many_redirects':
        return WebSearchErrors.vendorBadResponse(provider, 'it answered with a redirect');
      case 'http_safety.url_not_allowed':
        return WebSearchErrors.vendorUnreachable(
          provider,
          'its address is not allowed (a private address must be listed in ALLOW_PRIVATE_NETWORK_TARGETS)',
        );
      case 'http_safety.connection_failed':
        return WebSearchErrors.vendorUnreachable(provider, 'connection failed');
      default:
        return error;
    }
  },
};
