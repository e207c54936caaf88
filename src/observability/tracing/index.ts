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
export { startTracing, shutdownTracing, tracingStarted } from './start-tracing.js';
export { TracingModule } from './tracing.module.js';
export { traceLogFields } from './log-fields.js';
export { activeTraceparent } from './traceparent.js';
