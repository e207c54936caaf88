import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A plain HTTP server on 127.0.0.1 (port 0) recording the headers of every request. */
export class PlainHttpServer {
  readonly requests: { method?: string; url?: string; headers: IncomingMessage['headers'] }[] = [];

  private constructor(private readonly http: Server) {}

  static async start(respond: (req: IncomingMessage, res: ServerResponse) => void): Promise<PlainHttpServer> {
    const ref: { instance?: PlainHttpServer } = {};
    const http = createServer((req, res) => {
      ref.instance!.requests.push({ method: req.method, url: req.url, headers: req.headers });
      req.resume();
      respond(req, res);
    });
    const instance = new PlainHttpServer(http);
    ref.instance = instance;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  /** Accepts every request and never answers. */
  static silent(): Promise<PlainHttpServer> {
    return PlainHttpServer.start(() => undefined);
  }

  /** A web page, not an MCP endpoint. */
  static webPage(): Promise<PlainHttpServer> {
    return PlainHttpServer.start((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Hello</body></html>');
    });
  }

  /** Answers every request with a redirect to `location`. */
  static redirect(location: string, status = 307): Promise<PlainHttpServer> {
    return PlainHttpServer.start((_req, res) => {
      res.writeHead(status, { location }).end();
    });
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }
}
