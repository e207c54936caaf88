import { context, trace, type Context } from '@opentelemetry/api';
import { contextFromCarrier } from './spans.js';

/**
 * The parent for work a request asked for, when the request carries trace context in its body (MCP's
 * `params._meta`) as well as, maybe, its headers: the active context where it is already in the
 * carried trace (the HTTP server span continued the header), else the carried context, else the active.
 */
export function carriedParent(carrier: Record<string, unknown> | undefined): Context {
  const active = context.active();
  if (carrier === undefined) return active;
  const carried = contextFromCarrier(carrier);
  const carriedSpan = trace.getSpanContext(carried);
  if (carriedSpan === undefined || carried === active) return active;
  const activeSpan = trace.getSpanContext(active);
  return activeSpan !== undefined && activeSpan.traceId === carriedSpan.traceId ? active : carried;
}
