import { context, trace, type Context } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { carriedParent, inSpan, traceCarrier, withTraceHeaders } from '../../../src/observability/tracing';
import { InMemoryTracing, traceparentOf } from '../../support/tracing/in-memory-tracing';

const OTHER_TRACE = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';

describe('trace context across MCP requests', () => {
  let tracing: InMemoryTracing;
  beforeAll(() => {
    tracing = InMemoryTracing.start();
  });
  afterAll(() => tracing.stop());
  beforeEach(() => tracing.reset());

  describe('withTraceHeaders', () => {
    const recording = () => {
      const seen: Headers[] = [];
      const fetch = withTraceHeaders((_url: string | URL, init?: RequestInit) => {
        seen.push(new Headers(init?.headers));
        return Promise.resolve(new Response('ok'));
      });
      return { fetch, seen };
    };

    it('adds the traceparent active at each request, keeping the headers given', async () => {
      const { fetch, seen } = recording();
      await inSpan('first', {}, () => fetch('http://127.0.0.1/mcp', { headers: { 'x-api-key': 'k' } }));
      await inSpan('second', {}, () => fetch('http://127.0.0.1/mcp', { headers: new Headers({ a: 'b' }) }));
      expect(seen.map((h) => [h.get('traceparent'), h.get('x-api-key') ?? h.get('a')])).toEqual([
        [traceparentOf(tracing.one('first')), 'k'],
        [traceparentOf(tracing.one('second')), 'b'],
      ]);
    });

    it('sends one traceparent, its span’s, even where undici is instrumented', async () => {
      const undici = new UndiciInstrumentation();
      undici.enable();
      const received: IncomingHttpHeaders[] = [];
      const server = createServer((req, res) => {
        received.push(req.headers);
        res.end('ok');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
        const traced = withTraceHeaders(fetch);
        await inSpan('mcp request', {}, async () => (await traced(url)).text());
        // Without the wrapper, undici's span names itself: the instrumentation works here.
        await inSpan('plain request', {}, async () => (await fetch(url)).text());
      } finally {
        undici.disable();
        server.close();
      }
      expect(received[0].traceparent).toBe(traceparentOf(tracing.one('mcp request')));
      const undiciSpan = tracing.one('GET');
      expect(received[1].traceparent).toBe(traceparentOf(undiciSpan));
      expect(undiciSpan.parentSpanContext?.spanId).toBe(tracing.one('plain request').spanContext().spanId);
    });

    it('passes a request made outside any span unchanged', async () => {
      const { fetch, seen } = recording();
      await fetch('http://127.0.0.1/mcp', { headers: { 'x-api-key': 'k' } });
      expect(seen[0].get('traceparent')).toBeNull();
      expect(seen[0].get('x-api-key')).toBe('k');
    });
  });

  describe('carriedParent', () => {
    const spanIdIn = (ctx: Context) => trace.getSpanContext(ctx)?.spanId;

    it('continues the carried trace when no span is active', async () => {
      let carrier: Record<string, string> = {};
      await inSpan('client', {}, () => Promise.resolve((carrier = traceCarrier())));
      const parent = carriedParent({ traceparent: carrier.traceparent });
      expect(spanIdIn(parent)).toBe(tracing.one('client').spanContext().spanId);
    });

    it('keeps the active span when it is already in the carried trace (the HTTP header was continued)', async () => {
      await inSpan('client', {}, async () => {
        const carrier = traceCarrier();
        await inSpan('http server', {}, () => {
          expect(spanIdIn(carriedParent(carrier))).toBe(spanIdIn(context.active()));
          return Promise.resolve();
        });
      });
    });

    it('takes the carried trace over an active span of another trace', async () => {
      await inSpan('unrelated', {}, () => {
        const parent = carriedParent({ traceparent: OTHER_TRACE });
        expect(trace.getSpanContext(parent)).toMatchObject({
          traceId: '0af7651916cd43dd8448eb211c80319c',
          spanId: 'b7ad6b7169203331',
        });
        return Promise.resolve();
      });
    });

    it('is the active context without a carrier or without a traceparent in it', async () => {
      await inSpan('active', {}, () => {
        expect(carriedParent(undefined)).toBe(context.active());
        expect(carriedParent({ progressToken: 1 })).toBe(context.active());
        return Promise.resolve();
      });
    });
  });
});
