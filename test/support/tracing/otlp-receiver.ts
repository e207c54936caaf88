import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OTLP span kinds (`SPAN_KIND_*`). */
export const SpanKinds = { internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };

/** A span as received, its attributes as plain values. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  status: { code?: number; message?: string };
  attributes: Record<string, unknown>;
  events: { name: string; attributes: Record<string, unknown> }[];
  links: { traceId: string; spanId: string }[];
}

const valueOf = (value: AnyValue): unknown =>
  value.stringValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.boolValue ??
  value.doubleValue ??
  value.arrayValue?.values?.map(valueOf);

const attributesOf = (list: KeyValue[] | undefined): Record<string, unknown> =>
  Object.fromEntries((list ?? []).map((kv) => [kv.key, valueOf(kv.value)]));

interface ExportRequest {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: {
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        status?: { code?: number; message?: string };
        attributes?: KeyValue[];
        events?: { name: string; attributes?: KeyValue[] }[];
        links?: { traceId: string; spanId: string }[];
      }[];
    }[];
  }[];
}

/**
 * A local OTLP/HTTP traces endpoint speaking JSON (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`): it keeps
 * every span exported to `POST /v1/traces`, and the raw bodies (to search them for what must not be
 * there).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly bodies: string[] = [];
  private readonly server: Server = createServer((req, res) => void this.handle(req, res));

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    await new Promise<void>((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  /** `OTEL_EXPORTER_OTLP_ENDPOINT`. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** `span` and its ancestors up to the root (as far as they were received), nearest first. */
  ancestry(span: ReceivedSpan): ReceivedSpan[] {
    const chain = [span];
    for (let parentId = span.parentSpanId; parentId;) {
      const parent = this.spans.find((s) => s.traceId === span.traceId && s.spanId === parentId);
      if (parent === undefined) break;
      chain.push(parent);
      parentId = parent.parentSpanId;
    }
    return chain;
  }

  async waitFor(
    find: (spans: ReceivedSpan[]) => ReceivedSpan | undefined,
    what: string,
    timeoutMs = 15_000,
  ): Promise<ReceivedSpan> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find(this.spans);
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(`no span ${what} among: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/traces') {
      res.writeHead(404).end();
      return;
    }
    const body = Buffer.concat(chunks).toString('utf8');
    this.bodies.push(body);
    for (const resource of (JSON.parse(body) as ExportRequest).resourceSpans ?? []) {
      const service = String(attributesOf(resource.resource?.attributes)['service.name']);
      for (const scope of resource.scopeSpans ?? [])
        for (const span of scope.spans ?? [])
          this.spans.push({
            service,
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId || undefined,
            name: span.name,
            kind: span.kind,
            status: span.status ?? {},
            attributes: attributesOf(span.attributes),
            events: (span.events ?? []).map((e) => ({
              name: e.name,
              attributes: attributesOf(e.attributes),
            })),
            links: (span.links ?? []).map((l) => ({ traceId: l.traceId, spanId: l.spanId })),
          });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  }
}
