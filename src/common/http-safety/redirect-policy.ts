import type { Allowlist } from './allowlist.js';
import { checkUrlLiteral } from './check-url.js';
import { HttpSafetyErrors } from './http-safety.errors.js';

export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

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
 */
export function planRedirect(
  from: URL,
  status: number,
  location: string,
  method: string,
  allowlist: Allowlist,
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
  return {
    url: next,
    method: toGet ? 'GET' : method,
    keepBody: !toGet,
    crossOrigin: next.origin !== from.origin,
  };
}
