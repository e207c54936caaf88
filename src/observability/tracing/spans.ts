import {
  context,
  propagation,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanKind,
} from '@opentelemetry/api';

/**
 * The one tracer of this code base. Until the SDK starts (only when an OTLP endpoint is configured) it
 * is OpenTelemetry's no-op tracer: spans cost a function call and record nothing.
 */
export const tracer = trace.getTracer('yuxi-tool-platform');

let captureContent = false;

/** Set once at start-up from `OTEL_CAPTURE_CONTENT`. */
export function setContentCapture(on: boolean): void {
  captureContent = on;
}

/** Whether spans may carry prompts, tool arguments and results. */
export function contentCaptured(): boolean {
  return captureContent;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; default: the active context. */
  parent?: Context;
  /** Spans of other traces this one relates to. */
  links?: Link[];
  /** When the span began, if before the call (default: now). */
  startTime?: Date;
}

/**
 * Runs `fn` with a new span active (spans started inside are its children) and ends it when `fn`
 * settles; a throw is recorded on the span and rethrown.
 */
export async function inSpan<T>(
  name: string,
  options: SpanOptions,
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = options.parent ?? context.active();
  const { kind, attributes, links, startTime } = options;
  const span = tracer.startSpan(name, { kind, attributes, links, startTime }, parent);
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (error) {
    span.recordException(error as Error);
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error)?.message });
    throw error;
  } finally {
    span.end();
  }
}

/** W3C `traceparent` (and `tracestate`) of the active context; empty when tracing is off. */
export function traceCarrier(ctx: Context = context.active()): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/** The context a carrier (job data, request headers, MCP `_meta`) names; the root context when none. */
export function contextFromCarrier(carrier: Record<string, unknown> | undefined): Context {
  if (carrier === undefined) return context.active();
  return propagation.extract(context.active(), carrier, {
    get: (c, key) => (typeof c[key] === 'string' ? c[key] : undefined),
    keys: (c) => Object.keys(c),
  });
}
