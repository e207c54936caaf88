import { context, propagation, trace, type SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';

/**
 * A real tracer provider for this test file's process: every span ends up in memory, W3C trace
 * context propagates, the context follows async calls. The API's globals belong to the Jest worker:
 * start it in `beforeAll` and `stop` it in `afterAll`.
 */
export class InMemoryTracing {
  private constructor(
    private readonly provider: NodeTracerProvider,
    private readonly exporter: InMemorySpanExporter,
  ) {}

  static start(): InMemoryTracing {
    const exporter = new InMemorySpanExporter();
    const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    return new InMemoryTracing(provider, exporter);
  }

  /** The spans ended so far (since the last `reset`). */
  spans(): ReadableSpan[] {
    return this.exporter.getFinishedSpans();
  }

  named(name: string, kind?: SpanKind): ReadableSpan[] {
    return this.spans().filter((span) => span.name === name && (kind === undefined || span.kind === kind));
  }

  /** The one span of that name (and kind); fails the test when there is not exactly one. */
  one(name: string, kind?: SpanKind): ReadableSpan {
    const found = this.named(name, kind);
    if (found.length !== 1)
      throw new Error(
        `expected one span "${name}", found ${found.length}: ${this.spans()
          .map((s) => s.name)
          .join(', ')}`,
      );
    return found[0];
  }

  /** The spans whose parent is `parent`. */
  childrenOf(parent: ReadableSpan): ReadableSpan[] {
    const { spanId, traceId } = parent.spanContext();
    return this.spans().filter(
      (span) => span.parentSpanContext?.spanId === spanId && span.spanContext().traceId === traceId,
    );
  }

  reset(): void {
    this.exporter.reset();
  }

  async stop(): Promise<void> {
    await this.provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  }
}

/** The `traceparent` a span is named by (sampled). */
export function traceparentOf(span: ReadableSpan): string {
  const { traceId, spanId } = span.spanContext();
  return `00-${traceId}-${spanId}-01`;
}

/** Every attribute value of every span, as text: for "this string appears nowhere" checks. */
export function allAttributeText(spans: readonly ReadableSpan[]): string {
  return JSON.stringify(
    spans.map((span) => [span.name, span.attributes, span.events.map((e) => e.attributes)]),
  );
}
