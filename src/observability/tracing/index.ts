// Tracing's front door: spans, context propagation and the content-capture switch.
export {
  tracer,
  inSpan,
  traceCarrier,
  contextFromCarrier,
  setContentCapture,
  contentCaptured,
  type SpanOptions,
} from './spans.js';
export { ATTR } from './attribute-names.js';
export { recordsContent, setContentAttribute, SPAN_CONTENT_MAX_CHARS } from './span-content.js';
export { errorTypeOf } from './error-type.js';
export { withTraceHeaders } from './trace-headers.js';
export { carriedParent } from './carried-parent.js';
export { activeSpan } from './active-span.js';
export { SpanKind, SpanStatusCode, type Span } from '@opentelemetry/api';
export { startTracing, shutdownTracing, tracingStarted } from './start-tracing.js';
export { TracingModule } from './tracing.module.js';
export { traceLogFields } from './log-fields.js';
export { activeTraceparent } from './traceparent.js';
