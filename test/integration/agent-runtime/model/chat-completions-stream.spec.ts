import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ProviderHttpError,
  ProviderStreamError,
  streamChatCompletions,
} from '../../../../src/modules/agent-runtime/model/chat-completions-stream';
import { describeProviderFailure } from '../../../../src/modules/agent-runtime/model/provider-failure';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A raw HTTP server on 127.0.0.1 whose answer each test writes byte by byte. */
async function serve(handler: Handler): Promise<{ baseUrl: string; server: Server; sockets: () => number }> {
  const seen = new Set<unknown>();
  const server = createServer((req, res) => {
    seen.add(req.socket);
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { baseUrl: `http://127.0.0.1:${port}/v1`, server, sockets: () => seen.size };
}

const collect = async (stream: AsyncIterable<unknown>) => {
  const items: unknown[] = [];
  for await (const item of stream) items.push(item);
  return items;
};

describe('streamChatCompletions', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it('posts the request and yields each data payload until [DONE], in any SSE framing', async () => {
    const requests: { url?: string; auth?: string; body: string }[] = [];
    const started = await serve((req, res, body) => {
      requests.push({ url: req.url, auth: req.headers.authorization, body });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': a comment\r\n\r\ndata: {"n":1}\r\n\r\n');
      res.write('data: {"n":');
      res.write('2}\n\nevent: ping\n\n');
      res.write('data: [DONE]\n\n');
      res.end();
    });
    server = started.server;
    const call = () =>
      streamChatCompletions({
        baseUrl: `${started.baseUrl}/`,
        apiKey: 'k-1',
        body: { model: 'm', stream: true },
        timeoutMs: 5_000,
      });
    expect(await collect(await call())).toEqual([{ n: 1 }, { n: 2 }]);
    expect(await collect(await call())).toEqual([{ n: 1 }, { n: 2 }]);
    expect(requests[0]).toEqual({
      url: '/v1/chat/completions',
      auth: 'Bearer k-1',
      body: '{"model":"m","stream":true}',
    });
    // The second call reused the kept-alive connection.
    expect(started.sockets()).toBe(1);
  });

  it('sends a request once more at once when its kept-alive connection was closed by the server', async () => {
    const perSocket = new Map<unknown, number>();
    let requests = 0;
    const started = await serve((req, res) => {
      requests++;
      const onSocket = (perSocket.get(req.socket) ?? 0) + 1;
      perSocket.set(req.socket, onSocket);
      // The server dropped the idle connection just as the client reused it.
      if (onSocket === 2) return void req.socket.destroy();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: [DONE]\n\n');
    });
    server = started.server;
    const call = async () =>
      collect(
        await streamChatCompletions({ baseUrl: started.baseUrl, apiKey: 'k', body: {}, timeoutMs: 5_000 }),
      );
    expect(await call()).toEqual([{ n: 1 }]);
    expect(await call()).toEqual([{ n: 1 }]);
    expect({ requests, sockets: started.sockets() }).toEqual({ requests: 3, sockets: 2 });
  });

  it('rejects a failure status with its status and headers, read as the SDK errors are', async () => {
    const started = await serve((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '2' });
      res.end('{"error":{"message":"slow down","type":"rate_limit"}}');
    });
    server = started.server;
    const error = await streamChatCompletions({
      baseUrl: started.baseUrl,
      apiKey: 'k',
      body: {},
      timeoutMs: 5_000,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect((error as ProviderHttpError).error).toEqual({ message: 'slow down', type: 'rate_limit' });
    expect(describeProviderFailure(error)).toEqual({ type: 'http', status: 429, retryAfter: '2' });
  });

  it('ends the stream with an error the provider sends inside it', async () => {
    const started = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('data: {"n":1}\n\ndata: {"error":{"message":"overloaded"}}\n\n');
    });
    server = started.server;
    const stream = await streamChatCompletions({
      baseUrl: started.baseUrl,
      apiKey: 'k',
      body: {},
      timeoutMs: 5_000,
    });
    const error = await collect(stream).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderStreamError);
    expect(describeProviderFailure(error)).toEqual({ type: 'other' });
  });

  it('stops a stream at once when aborted mid-way, with the abort reason', async () => {
    const started = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"n":1}\n\n'); // and never ends
    });
    server = started.server;
    const controller = new AbortController();
    const stream = await streamChatCompletions({
      baseUrl: started.baseUrl,
      apiKey: 'k',
      body: {},
      timeoutMs: 5_000,
      signal: controller.signal,
    });
    const seen: unknown[] = [];
    const reason = new Error('cancelled by the run');
    const error = await (async () => {
      for await (const item of stream) {
        seen.push(item);
        controller.abort(reason);
      }
    })().catch((e: unknown) => e);
    expect(seen).toEqual([{ n: 1 }]);
    expect(error).toBe(reason);
  });

  it('times out a request whose headers never come as a connection timeout', async () => {
    const started = await serve(() => undefined);
    server = started.server;
    const error = await streamChatCompletions({
      baseUrl: started.baseUrl,
      apiKey: 'k',
      body: {},
      timeoutMs: 100,
    }).catch((e: unknown) => e);
    expect(describeProviderFailure(error)).toEqual({ type: 'connection', reason: 'timeout' });
  });
});
