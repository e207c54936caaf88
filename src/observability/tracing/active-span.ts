import { trace, type Span } from '@opentelemetry/api';

/** The span of the active context, if any (a non-recording one when tracing is off). */
export function activeSpan(): Span | undefined {
  return trace.getActiveSpan();
}
