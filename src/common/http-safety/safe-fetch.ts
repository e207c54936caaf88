import { fetch, Headers, type Dispatcher, type RequestInit, type Response } from 'undici';
import { DomainError } from '../errors/domain-error.js';
import type { Allowlist } from './allowlist.js';
import { checkUrlLiteral } from './check-url.js';
import { Deadline } from './deadline.js';
import { BlockedAddressError, HttpSafetyErrors } from './http-safety.errors.js';
import { keepCrossOriginHeaders, planRedirect, REDIRECT_STATUSES } from './redirect-policy.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface SafeFetchOptions {
  /** Deadline for the whole exchange, all redirect hops included. Default 30 s. */
  timeoutMs?: number;
  /** Redirects followed before `http_safety.too_many_redirects`; 0 makes any redirect an error. Default 5. */
  maxRedirects?: number;
  /** Whether the deadline keeps running while the body is read. Default true; false for streams (SSE). */
  timeoutIncludesBody?: boolean;
}

export type SafeRequestInit = Omit<RequestInit, 'redirect' | 'dispatcher'> & SafeFetchOptions;

export interface SafeFetchResult {
  response: Response;
  /** The URL that produced `response`, after redirects, without credentials. */
  url: string;
}

export interface SafeFetchTarget {
  dispatcher: Dispatcher;
  allowlist: Allowlist;
}

const BODY_HEADERS = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'content-location',
];

/** Fetch refuses URLs with userinfo; send them as Basic auth instead (unless a header is already set). */
function moveCredentialsToHeader(url: URL, headers: Headers): URL {
  if (url.username === '' && url.password === '') return url;
  const bare = new URL(url);
  bare.username = '';
  bare.password = '';
  if (!headers.has('authorization')) {
    const pair = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.set('authorization', `Basic ${Buffer.from(pair).toString('base64')}`);
  }
  return bare;
}

const isStreamBody = (body: unknown): boolean =>
  body instanceof ReadableStream ||
  (typeof body === 'object' && body !== null && Symbol.asyncIterator in body);

function causedByBlockedAddress(err: unknown): boolean {
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 8; depth++) {
    if (current instanceof BlockedAddressError) return true;
    current = current.cause;
  }
  return false;
}

function translateError(
  err: unknown,
  url: URL,
  deadline: Deadline,
  callerSignal: AbortSignal | null | undefined,
) {
  if (err instanceof DomainError) return err;
  if (deadline.expiredWith !== null) return deadline.expiredWith;
  if (callerSignal?.aborted) return callerSignal.reason as unknown;
  if (causedByBlockedAddress(err)) return HttpSafetyErrors.urlNotAllowed(url, 'blocked_address');
  return HttpSafetyErrors.connectionFailed(url, err);
}

/**
 * `fetch` for user-supplied URLs: http(s) only, every hop's address checked at connect time by the
 * safe dispatcher, redirects followed here (and re-validated) rather than by undici, one overall
 * deadline. Rejects only with `DomainError`s (or the caller's own abort reason).
 */
export async function fetchSafely(
  target: SafeFetchTarget,
  input: string | URL,
  init: SafeRequestInit = {},
): Promise<SafeFetchResult> {
  const {
    timeoutMs = DEFAULT_TIMEOUT_MS,
    maxRedirects = DEFAULT_MAX_REDIRECTS,
    timeoutIncludesBody = true,
    signal: callerSignal,
    ...request
  } = init;
  let url = checkUrlLiteral(input, target.allowlist);
  const first = url;
  const deadline = new Deadline(timeoutMs, () => HttpSafetyErrors.timeout(first, timeoutMs), callerSignal);
  const headers = new Headers(request.headers);
  let method = (request.method ?? 'GET').toUpperCase();
  let body = request.body ?? null;
  const streamed = isStreamBody(body);

  try {
    for (let redirects = 0; ; redirects++) {
      url = moveCredentialsToHeader(url, headers);
      const response = await fetch(url, {
        ...request,
        ...(streamed && body !== null ? { duplex: 'half' as const } : {}),
        method,
        headers,
        body,
        redirect: 'manual',
        dispatcher: target.dispatcher,
        signal: deadline.signal,
      });
      const location = response.headers.get('location');
      const isRedirect = REDIRECT_STATUSES.has(response.status) && location !== null;
      // A stream body cannot be replayed for a 307/308: hand the redirect back unfollowed.
      const mustReplayStream =
        streamed && body !== null && (response.status === 307 || response.status === 308);
      if (!isRedirect || mustReplayStream) {
        if (!timeoutIncludesBody) deadline.clear();
        return { response, url: url.href };
      }
      await response.body?.cancel().catch(() => undefined);
      if (redirects + 1 > maxRedirects) throw HttpSafetyErrors.tooManyRedirects(first, maxRedirects);

      const plan = planRedirect(url, response.status, location, method, target.allowlist, body !== null);
      if (plan.crossOrigin) keepCrossOriginHeaders(headers);
      if (!plan.keepBody) {
        body = null;
        BODY_HEADERS.forEach((h) => headers.delete(h));
      }
      method = plan.method;
      url = plan.url;
    }
  } catch (err) {
    deadline.clear();
    throw translateError(err, url, deadline, callerSignal);
  }
}
