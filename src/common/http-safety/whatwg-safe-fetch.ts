import type { Dispatcher, RequestInit as UndiciRequestInit } from 'undici';
import { Allowlist, type AllowlistInput } from './allowlist.js';
import { createSafeDispatcher } from './safe-dispatcher.js';
import { fetchSafely, type SafeFetchOptions } from './safe-fetch.js';

/** The WHATWG `fetch` signature, as libraries taking a custom fetch (the MCP SDK transports) expect. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface CreateSafeFetchOptions extends SafeFetchOptions {
  allowlist?: AllowlistInput;
  /** Defaults to a new `createSafeDispatcher(allowlist)`. */
  dispatcher?: Dispatcher;
}

async function splitInput(input: string | URL | Request, init: RequestInit = {}) {
  if (typeof input === 'string' || input instanceof URL) return { url: input, init };
  const body = init.body ?? (input.body === null ? undefined : await input.arrayBuffer());
  return {
    url: input.url,
    init: { method: input.method, headers: input.headers, signal: input.signal, ...init, body },
  };
}

/**
 * A WHATWG-compatible fetch over `fetchSafely`. Unlike `SafeHttpClient.fetch`, the deadline stops at
 * the response headers by default (`timeoutIncludesBody: false`): SDK transports keep event streams
 * open and bound them with their own signal. Rejects with `DomainError`s.
 */
export function createSafeFetch(options: CreateSafeFetchOptions = {}): FetchLike {
  const { allowlist = Allowlist.EMPTY, dispatcher, ...defaults } = options;
  const list = Allowlist.from(allowlist);
  const target = { allowlist: list, dispatcher: dispatcher ?? createSafeDispatcher(list) };
  return async (input, init) => {
    const split = await splitInput(input, init);
    const { response } = await fetchSafely(target, split.url, {
      timeoutIncludesBody: false,
      ...defaults,
      ...(split.init as UndiciRequestInit),
    });
    return response;
  };
}

let strictFetch: FetchLike | undefined;

/**
 * `createSafeFetch()` with no allowlist (every private address refused), created on first use. Code
 * that must honour `ALLOW_PRIVATE_NETWORK_TARGETS` uses `SafeHttpClient.safeFetch` instead.
 */
export const safeFetch: FetchLike = (input, init) => {
  strictFetch ??= createSafeFetch();
  return strictFetch(input, init);
};
