import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/**
 * Tracing on in the test process itself: every span the application starts ends up in memory, with the
 * context propagation the SDK sets up in production (AsyncLocalStorage, W3C trace context).
 */
export class InMemoryTracing {
  private readonly exporter = new InMemorySpanExporter();
  private readonly contextManager = new AsyncLocalStorageContextManager();

  static start(): InMemoryTracing {
    const tracing = new InMemoryTracing();
    context.setGlobalContextManager(tracing.contextManager.enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    trace.setGlobalTracerProvider(
      new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(tracing.exporter)] }),
    );
    return tracing;
  }

  get spans(): ReadableSpan[] {
    return this.exporter.getFinishedSpans();
  }

  stop(): void {
    trace.disable();
    propagation.disable();
    context.disable();
  }
}
