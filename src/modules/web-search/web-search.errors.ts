import { truncate } from '../../common/text/truncate.js';
import { DomainError, declareErrorCodes } from '../../common/errors/index.js';
import { HttpSafetyErrorCode } from '../../common/http-safety/index.js';

/** Stable `web_search.*` codes (the tools' errors and the settings API's). */
export const WebSearchErrorCode = {
  NOT_CONFIGURED: 'web_search.not_configured',
  PROVIDER_NOT_CONFIGURED: 'web_search.provider_not_configured',
  PROVIDER_NOT_SUPPORTED: 'web_search.provider_not_supported',
  INVALID_ARGUMENT: 'web_search.invalid_argument',
  URL_NOT_ALLOWED: 'web_search.url_not_allowed',
  VENDOR_REJECTED_KEY: 'web_search.vendor_rejected_key',
  VENDOR_RATE_LIMITED: 'web_search.vendor_rate_limited',
  VENDOR_FAILED: 'web_search.vendor_failed',
  VENDOR_UNREACHABLE: 'web_search.vendor_unreachable',
  VENDOR_BAD_RESPONSE: 'web_search.vendor_bad_response',
  FETCH_NO_CONTENT: 'web_search.fetch_no_content',
  KEY_UNREADABLE: 'web_search.key_unreadable',
} as const;
declareErrorCodes(WebSearchErrorCode);

export type WebSearchErrorCode = (typeof WebSearchErrorCode)[keyof typeof WebSearchErrorCode];
/** What a vendor call can fail with (the settings test reports these in `error`). */
export const VENDOR_FAILURE_CODES = [
  WebSearchErrorCode.VENDOR_REJECTED_KEY,
  WebSearchErrorCode.VENDOR_RATE_LIMITED,
  WebSearchErrorCode.VENDOR_FAILED,
  WebSearchErrorCode.VENDOR_UNREACHABLE,
  WebSearchErrorCode.VENDOR_BAD_RESPONSE,
  WebSearchErrorCode.FETCH_NO_CONTENT,
] as const;

export type WebCapability = 'search' | 'fetch';

const C = WebSearchErrorCode;

/** Vendor text is shown cut short (`truncate`); the caller removes any key from it first. */
export const WebSearchErrors = {
  notConfigured: (capability: WebCapability, reason: string) =>
    new DomainError('unavailable', C.NOT_CONFIGURED, `Web ${capability} is not available: ${reason}.`, {
      details: { capability },
    }),
  providerNotConfigured: (capability: WebCapability, provider: string) =>
    new DomainError(
      'unavailable',
      C.PROVIDER_NOT_CONFIGURED,
      `The ${capability} provider ${provider} has no API key (settings or environment).`,
      { details: { capability, provider } },
    ),
  providerNotSupported: (capability: WebCapability, provider: string) =>
    new DomainError('invalid', C.PROVIDER_NOT_SUPPORTED, `${provider} does not offer web ${capability}.`, {
      details: { capability, provider },
    }),
  invalidArgument: (provider: string, argument: string, reason: string) =>
    new DomainError('invalid', C.INVALID_ARGUMENT, `${argument}: ${reason} (${provider}).`, {
      details: { provider, argument },
    }),
  urlNotAllowed: (reason: string) =>
    new DomainError('invalid', C.URL_NOT_ALLOWED, `The URL is refused: ${reason}.`, { details: { reason } }),
  vendorRejectedKey: (provider: string, status: number) =>
    new DomainError(
      'unavailable',
      C.VENDOR_REJECTED_KEY,
      `${provider} refused the API key (HTTP ${status}).`,
      {
        details: { provider, status },
      },
    ),
  vendorRateLimited: (provider: string, status: number) =>
    new DomainError(
      'unavailable',
      C.VENDOR_RATE_LIMITED,
      `${provider} refused the call: rate limit or quota (HTTP ${status}).`,
      { details: { provider, status } },
    ),
  vendorFailed: (provider: string, status: number | null, message: string) =>
    new DomainError(
      'unavailable',
      C.VENDOR_FAILED,
      `${provider} failed${status === null ? '' : ` (HTTP ${status})`}: ${truncate(message)}`,
      { details: { provider, status } },
    ),
  vendorUnreachable: (provider: string, why: string) =>
    new DomainError('unavailable', C.VENDOR_UNREACHABLE, `${provider} could not be reached: ${why}.`, {
      details: { provider },
    }),
  vendorBadResponse: (provider: string, why: string) =>
    new DomainError(
      'unavailable',
      C.VENDOR_BAD_RESPONSE,
      `${provider} answered in an unexpected form: ${why}.`,
      {
        details: { provider },
      },
    ),
  fetchNoContent: (provider: string, url: string, why: string) =>
    new DomainError(
      'unprocessable',
      C.FETCH_NO_CONTENT,
      `${provider} returned no usable content for the page: ${why}.`,
      {
        details: { provider, url: truncate(url) },
      },
    ),
  keyUnreadable: (provider: string) =>
    new DomainError(
      'unavailable',
      C.KEY_UNREADABLE,
      `The saved ${provider} API key cannot be decrypted (SECRETS_KEY changed?); save it again.`,
      { details: { provider } },
    ),
  /**
   * A guarded-client failure (`http_safety.*`) as a vendor error, without the deployment's base URL;
   * any other error passes through.
   */
  fromTransport: (provider: string, error: DomainError, timeoutMs: number): DomainError => {
    switch (error.code) {
      case HttpSafetyErrorCode.TIMEOUT:
        return WebSearchErrors.vendorUnreachable(provider, `no answer within ${timeoutMs / 1000} s`);
      case HttpSafetyErrorCode.RESPONSE_TOO_LARGE:
        return WebSearchErrors.vendorBadResponse(provider, 'the answer is larger than allowed');
      case HttpSafetyErrorCode.TOO_MANY_REDIRECTS:
        return WebSearchErrors.vendorBadResponse(provider, 'it answered with a redirect');
      case HttpSafetyErrorCode.URL_NOT_ALLOWED:
        return WebSearchErrors.vendorUnreachable(
          provider,
          'its address is not allowed (a private address must be listed in ALLOW_PRIVATE_NETWORK_TARGETS)',
        );
      case HttpSafetyErrorCode.CONNECTION_FAILED:
        return WebSearchErrors.vendorUnreachable(provider, 'connection failed');
      default:
        return error;
    }
  },
};
