import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { context, ROOT_CONTEXT, trace, TraceFlags } from '@opentelemetry/api';
import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { outcomeOf } from '../../../src/modules/agent-runtime/worker/run-span';
import { carriesTraceHeader } from '../../../src/observability/tracing/carried-trace-header';
import { routeTemplateOf } from '../../../src/observability/tracing/http-route';
import { traceLogFields } from '../../../src/observability/tracing/log-fields';
import { untracedRequest } from '../../../src/observability/tracing/tracing-sdk';

describe('tracing helpers', () => {
  it('leaves probes and scrapes untraced, and nothing else', () => {
    for (const url of [
      '/api/health',
      '/api/health/live',
      '/api/health/ready?x=1',
      '/metrics',
      '/metrics?a=b',
    ])
      expect(untracedRequest(url)).toBe(true);
    for (const url of ['/api/healthy', '/api/threads', '/metricsx', '/api/metrics', undefined])
      expect(untracedRequest(url)).toBe(false);
  });

  it('names a request by the route template it matched, never its URL', () => {
    const request = Object.assign(new IncomingMessage(new Socket()), {
      url: '/api/threads/5f0c/runs',
      route: { path: '/api/threads/:id/runs' },
      baseUrl: '',
    });
    expect(routeTemplateOf(request)).toBe('/api/threads/:id/runs');
    expect(
      routeTemplateOf(Object.assign(new IncomingMessage(new Socket()), { url: '/nowhere' })),
    ).toBeUndefined();
  });

  it('leaves a fetch that already carries a traceparent to its caller’s span', () => {
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    expect(
      carriesTraceHeader({ headers: ['content-type', 'application/json', 'TraceParent', traceparent] }),
    ).toBe(true);
    expect(carriesTraceHeader({ headers: `host: x\r\ntraceparent: ${traceparent}\r\n` })).toBe(true);
    expect(carriesTraceHeader({ headers: ['x-traceparent', traceparent, 'accept', 'traceparent'] })).toBe(
      false,
    );
    expect(carriesTraceHeader({ headers: 'host: x\r\nx-traceparent: y\r\n' })).toBe(false);
  });

  it('names how an execution ended', () => {
    expect(
      outcomeOf({ kind: 'outcome', outcome: { status: 'failed', error: { code: 'x', message: 'm' } } }),
    ).toBe('failed');
    expect(outcomeOf({ kind: 'stopped', reason: 'cancel' })).toBe('cancelled');
    expect(outcomeOf({ kind: 'stopped', reason: 'shutdown' })).toBe('shutdown');
  });

  describe('log fields', () => {
    const manager = new AsyncLocalStorageContextManager();
    beforeAll(() => context.setGlobalContextManager(manager.enable()));
    afterAll(() => {
      manager.disable();
      context.disable();
    });

    it('are the active span’s trace and span ids, and nothing outside a span', () => {
      const span = trace.wrapSpanContext({
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: TraceFlags.SAMPLED,
      });
      expect(context.with(trace.setSpan(ROOT_CONTEXT, span), traceLogFields)).toEqual({
        trace_id: '0af7651916cd43dd8448eb211c80319c',
        span_id: 'b7ad6b7169203331',
      });
      expect(traceLogFields()).toEqual({});
    });
  });
});
