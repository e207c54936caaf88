import { createServer, Socket, type Server } from 'node:net';

/**
 * A TCP relay on 127.0.0.1 in front of a real service. `cut()` drops every connection and refuses new
 * ones (the service looks down to whoever connects through the relay); `restore()` listens again on
 * the same port.
 */
export class TcpProxy {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async start(): Promise<this> {
    await this.listen(0);
    return this;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server !== null) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async restore(): Promise<void> {
    if (this.server === null) await this.listen(this.port);
  }

  stop(): Promise<void> {
    return this.cut();
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = new Socket();
      this.sockets.add(client).add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
        this.sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      upstream.connect(this.targetPort, this.targetHost, () => {
        client.pipe(upstream);
        upstream.pipe(client);
      });
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        if (address !== null && typeof address === 'object') this.port = address.port;
        resolve();
      });
    });
  }
}
