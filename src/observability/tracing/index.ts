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
