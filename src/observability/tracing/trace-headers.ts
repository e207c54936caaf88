import { context, type Context } from '@opentelemetry/api';
import { traceCarrier } from './spans.js';

type Fetch = (url: string | URL, init?: RequestInit) => Promise<Response>;

/**
 * A fetch that adds the W3C `traceparent` (and `tracestate`) of the context active when each request
 * is made: a pooled connection's requests each name the span they belong to. The request itself is
 * sent with tracing suppressed, so an HTTP client instrumentation (undici's) neither adds a second
 * `traceparent` (two make the header invalid) nor a span of its own. With tracing off it is `fetch`
 * as given, and the SDK's core package (where suppression lives) is never loaded.
 */
export function withTraceHeaders<F extends Fetch>(fetch: F): F {
  const traced = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const carrier = traceCarrier();
    const names = Object.keys(carrier);
    if (names.length === 0) return fetch(url, init);
    const headers = new Headers(init?.headers);
    for (const name of names) headers.set(name, carrier[name]);
    const suppressed = (await suppressor())(context.active());
    return context.with(suppressed, () => fetch(url, { ...init, headers }));
  };
  return traced as F;
}

let suppressTracing: ((ctx: Context) => Context) | undefined;

async function suppressor(): Promise<(ctx: Context) => Context> {
  suppressTracing ??= (await import('@opentelemetry/core')).suppressTracing;
  return suppressTracing;
}
