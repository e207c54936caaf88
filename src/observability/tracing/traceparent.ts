import { traceCarrier } from './spans.js';

/** The W3C `traceparent` of the active context, to store with work that runs later; null when tracing is off. */
export function activeTraceparent(): string | null {
  return traceCarrier().traceparent ?? null;
}
