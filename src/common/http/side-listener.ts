import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

/**
 * A plain `node:http` listener beside Nest's HTTP server (the worker's health port, the metrics port):
 * it listens once `open` resolves (a port in use rejects) and `close` ends open connections too, so a
 * keep-alive scraper or probe cannot hold the process's shutdown.
 */
export class SideListener {
  private constructor(private readonly server: Server) {}

  static async open(
    port: number,
    handler: (req: IncomingMessage, res: ServerResponse) => void,
    keepAliveTimeoutMs: number,
  ): Promise<SideListener> {
    const server = createServer(handler);
    server.keepAliveTimeout = keepAliveTimeoutMs;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return new SideListener(server);
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }
}
