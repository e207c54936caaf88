import type { Allowlist } from './allowlist.js';
import { checkUrlLiteral } from './check-url.js';
import { HttpSafetyErrors } from './http-safety.errors.js';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/**
 * The only caller headers sent on after a hop to another origin. Anything else (credentials under any
 * name: `authorization`, `cookie`, `proxy-authorization`, `x-api-key`, vendor tokens…) was meant for
 * the first origin only; a denylist would always miss one.
 */
export const CROSS_ORIGIN_HEADER_ALLOWLIST: ReadonlySet<string> = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'user-agent',
]);

/** Drops every header not on the cross-origin allowlist, in place. */
export function keepCrossOriginHeaders(headers: Headers): void {
  for (const name of [...headers.keys()]) if (!CROSS_ORIGIN_HEADER_ALLOWLIST.has(name)) headers.delete(name);
}

export interface RedirectPlan {
  url: URL;
  method: string;
  /** False when the method became GET: the body and its headers are dropped. */
  keepBody: boolean;
  crossOrigin: boolean;
}

/**
 * Where a redirect leads and how to follow it, as browsers do: 303 (for anything but GET/HEAD) and
 * 301/302 after POST become a body-less GET; 307/308 keep method and body. The target is re-checked
 * like the first URL.
 *
 * https → http is refused unless the new target is on the private-network allowlist: following it
 * would send the request (headers, body) in clear text to wherever the server points, and an
 * allowlisted target is one the operator vouched for (typically a plain-http internal service).
 *
 * A 307/308 to another origin with a request body is refused (`cross_origin_body_redirect`): the fetch
 * spec would re-send the body there, and the body was written for the first origin (it may carry
 * credentials or private data); turning it into a GET would silently change the request instead.
 */
export function planRedirect(
  from: URL,
  status: number,
  location: string,
  method: string,
  allowlist: Allowlist,
  hasBody = false,
): RedirectPlan {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw HttpSafetyErrors.urlNotAllowed(location, 'invalid_url');
  }
  checkUrlLiteral(next, allowlist);
  if (from.protocol === 'https:' && next.protocol === 'http:' && !allowlist.allowsUrl(next)) {
    throw HttpSafetyErrors.urlNotAllowed(next, 'insecure_redirect');
  }
  const toGet =
    (status === 303 && method !== 'GET' && method !== 'HEAD') ||
    ((status === 301 || status === 302) && method === 'POST');
  const crossOrigin = next.origin !== from.origin;
  if (crossOrigin && hasBody && !toGet)
    throw HttpSafetyErrors.urlNotAllowed(next, 'cross_origin_body_redirect');
  return { url: next, method: toGet ? 'GET' : method, keepBody: !toGet, crossOrigin };
}
