import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * `trace_id` and `span_id` of the span active where a log line is written (a pino `mixin`), so a line
 * leads to its trace and a trace to its lines; nothing outside a span.
 */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
