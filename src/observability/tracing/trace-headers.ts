import { traceCarrier } from './spans.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that adds the W3C `traceparent` (and `tracestate`) of the context active when each request
 * is made: a pooled connection's requests each name the span they belong to. With tracing off it is
 * `fetch` as given.
 */
export function withTraceHeaders<F extends Fetch>(fetch: F): F {
  const traced = (url: string | URL, init?: RequestInit): Promise<Response> => {
    const carrier = traceCarrier();
    const names = Object.keys(carrier);
    if (names.length === 0) return fetch(url, init);
    const headers = new Headers(init?.headers);
    for (const name of names) headers.set(name, carrier[name]);
    return fetch(url, { ...init, headers });
  };
  return traced as F;
}
