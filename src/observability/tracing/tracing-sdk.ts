import { IncomingMessage } from 'node:http';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import type { AppRole } from '../../config/app-config.js';
import { carriesTraceHeader } from './carried-trace-header.js';
import { nameServerSpan } from './http-route.js';

/** Requests that are not worth a trace: probes and scrapes. */
const UNTRACED_PATH = /^\/(api\/health(\/|\?|$)|metrics(\?|$))/;

export function untracedRequest(url: string | undefined): boolean {
  return UNTRACED_PATH.test(url ?? '');
}

/**
 * The OpenTelemetry Node SDK as this service runs it: traces only (metrics are Prometheus', logs stay
 * on stdout), exported over OTLP by the protocol `OTEL_EXPORTER_OTLP_(TRACES_)PROTOCOL` names
 * (`http/protobuf` by default, `http/json`, `grpc`), W3C trace context in and out, incoming HTTP
 * requests and outgoing HTTP and fetch calls traced. Everything else (endpoint, headers, sampler, batch
 * delays, resource attributes) the SDK reads from the standard `OTEL_*` variables. Loaded only when
 * tracing is on.
 */
export function createTracingSdk(role: AppRole): NodeSDK {
  return new NodeSDK({
    // OTEL_SERVICE_NAME, when set, names the service (the SDK's environment detector reads it).
    serviceName: process.env.OTEL_SERVICE_NAME?.trim() ? undefined : `yuxi-tool-platform-${role}`,
    textMapPropagator: new W3CTraceContextPropagator(),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req: IncomingMessage) => untracedRequest(req.url),
        applyCustomAttributesOnSpan: (span, request) => {
          if (request instanceof IncomingMessage) nameServerSpan(span, request);
        },
        // Outgoing calls are traced inside a trace only, not as roots of their own.
        requireParentforOutgoingSpans: true,
      }),
      // Global fetch (the model provider's SDK, web search, MCP over HTTP): spans and `traceparent`.
      new UndiciInstrumentation({ requireParentforSpans: true, ignoreRequestHook: carriesTraceHeader }),
    ],
  });
}
