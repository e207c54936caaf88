import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** The server side of one request: what the app's handler holds. */
export interface ServerExchange {
  req: IncomingMessage;
  res: ServerResponse;
  socket: Socket;
}

/**
 * The server side of each request an HTTP server receives, in order: a test holds the exchange of the
 * request it just made, to read what the server has pending on its socket or to know that the server
 * saw the client go.
 */
export class ServerConnections {
  private readonly waiting: ((exchange: ServerExchange) => void)[] = [];
  private readonly onRequest = (req: IncomingMessage, res: ServerResponse) =>
    this.waiting.shift()?.({ req, res, socket: req.socket });

  constructor(private readonly server: Server) {
    server.on('request', this.onRequest);
  }

  /** The next request received after this call (make the request after calling it). */
  next(): Promise<ServerExchange> {
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  stop(): void {
    this.server.off('request', this.onRequest);
  }
}

const closed = (emitter: Socket | IncomingMessage | ServerResponse, done: boolean) =>
  done ? Promise.resolve() : new Promise<void>((resolve) => emitter.once('close', () => resolve()));

/**
 * Resolves once the server has seen the client go: the socket, the request and the response have all
 * emitted `close`, and the handlers of those events have run.
 */
export async function closedOnServer({ req, res, socket }: ServerExchange): Promise<void> {
  await Promise.all([closed(socket, socket.destroyed), closed(req, req.closed), closed(res, res.closed)]);
  await new Promise((resolve) => setImmediate(resolve));
}
