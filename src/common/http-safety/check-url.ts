import { isIP } from 'node:net';
import { Allowlist, type AllowlistInput } from './allowlist.js';
import { isBlockedAddress } from './blocked-addresses.js';
import { HttpSafetyErrors } from './http-safety.errors.js';

const ALLOWED_SCHEMES = new Set(['http:', 'https:']);

/** The URL's host as an IP literal (IPv6 without brackets), or null when it is a name. */
export function ipLiteralOf(url: URL): string | null {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return isIP(host) === 0 ? null : host;
}

/**
 * Checks what can be checked without the network: the scheme, and the host when it is an IP literal
 * (WHATWG parsing already turned `0x7f.1`, `2130706433`, `127.1` into `127.0.0.1`). Names are checked
 * later, at connect time, against every address they resolve to. Returns the parsed URL; throws
 * `http_safety.url_not_allowed` (kind `invalid`) otherwise.
 */
export function checkUrlLiteral(url: string | URL, allowlist: AllowlistInput = Allowlist.EMPTY): URL {
  let parsed: URL;
  try {
    parsed = new URL(url.toString());
  } catch {
    throw HttpSafetyErrors.urlNotAllowed(String(url), 'invalid_url');
  }
  if (!ALLOWED_SCHEMES.has(parsed.protocol))
    throw HttpSafetyErrors.urlNotAllowed(parsed, 'scheme_not_allowed');
  if (parsed.hostname === '') throw HttpSafetyErrors.urlNotAllowed(parsed, 'invalid_url');
  const literal = ipLiteralOf(parsed);
  if (literal !== null && isBlockedAddress(literal) && !Allowlist.from(allowlist).allowsUrl(parsed)) {
    throw HttpSafetyErrors.urlNotAllowed(parsed, 'blocked_address');
  }
  return parsed;
}
