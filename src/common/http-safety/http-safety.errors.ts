import { DomainError } from '../errors/domain-error.js';
import { declareErrorCodes } from '../errors/error-code-catalog.js';
import { redactUrl } from './redact-url.js';

export type UrlRefusalReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'blocked_address'
  | 'insecure_redirect'
  | 'cross_origin_body_redirect';

const REASON_TEXT: Record<UrlRefusalReason, string> = {
  invalid_url: 'it is not a valid absolute URL',
  scheme_not_allowed: 'only http and https are allowed',
  blocked_address: 'it points to a private, loopback or otherwise non-public address',
  insecure_redirect: 'an https request may not be redirected to plain http',
  cross_origin_body_redirect: 'a 307/308 redirect to another origin would re-send the request body there',
};

export const HttpSafetyErrorCode = {
  URL_NOT_ALLOWED: 'http_safety.url_not_allowed',
  TOO_MANY_REDIRECTS: 'http_safety.too_many_redirects',
  TIMEOUT: 'http_safety.timeout',
  RESPONSE_TOO_LARGE: 'http_safety.response_too_large',
  CONNECTION_FAILED: 'http_safety.connection_failed',
} as const;
export type HttpSafetyErrorCode = (typeof HttpSafetyErrorCode)[keyof typeof HttpSafetyErrorCode];
declareErrorCodes(HttpSafetyErrorCode);

export const HttpSafetyErrors = {
  urlNotAllowed: (url: string | URL, reason: UrlRefusalReason) => {
    const safe = redactUrl(url);
    return new DomainError(
      'invalid',
      HttpSafetyErrorCode.URL_NOT_ALLOWED,
      `Refused ${safe}: ${REASON_TEXT[reason]}.`,
      {
        details: { url: safe, reason },
      },
    );
  },
  tooManyRedirects: (url: string | URL, maxRedirects: number) =>
    new DomainError(
      'unprocessable',
      HttpSafetyErrorCode.TOO_MANY_REDIRECTS,
      `More than ${maxRedirects} redirects starting at ${redactUrl(url)}.`,
      { details: { url: redactUrl(url), max_redirects: maxRedirects } },
    ),
  timeout: (url: string | URL, timeoutMs: number) =>
    new DomainError(
      'timeout',
      HttpSafetyErrorCode.TIMEOUT,
      `${redactUrl(url)} did not answer within ${timeoutMs} ms.`,
      {
        details: { url: redactUrl(url), timeout_ms: timeoutMs },
      },
    ),
  responseTooLarge: (url: string | URL | undefined, limitBytes: number) =>
    new DomainError(
      'too_large',
      HttpSafetyErrorCode.RESPONSE_TOO_LARGE,
      `The response${url === undefined ? '' : ` from ${redactUrl(url)}`} exceeds ${limitBytes} bytes.`,
      { details: { ...(url === undefined ? {} : { url: redactUrl(url) }), limit_bytes: limitBytes } },
    ),
  connectionFailed: (url: string | URL, cause: unknown) =>
    new DomainError(
      'unavailable',
      HttpSafetyErrorCode.CONNECTION_FAILED,
      `Could not reach ${redactUrl(url)}.`,
      {
        details: { url: redactUrl(url) },
        cause,
      },
    ),
};

/**
 * Raised inside the connector (DNS lookup or literal check) when a target address is blocked; the
 * fetch layer turns it into `http_safety.url_not_allowed` with the request URL. Deliberately carries
 * no address, so an internal address never reaches a client.
 */
export class BlockedAddressError extends Error {
  readonly code = 'ERR_HTTP_SAFETY_BLOCKED_ADDRESS';

  constructor(readonly hostname: string) {
    super(`Connection to ${hostname} refused: it resolves to a blocked address.`);
    this.name = 'BlockedAddressError';
  }
}
