import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** A streamable-HTTP MCP server on 127.0.0.1 with one `echo` tool; `tools/list` answers after `listDelayMs`. */
export class McpBenchServer {
  private readonly sessions = new Map<string, StreamableHTTPServerTransport>();

  private constructor(
    private readonly http: Server,
    private readonly listDelayMs: number,
    readonly toolName: string,
  ) {}

  static async start(toolName: string, listDelayMs = 0): Promise<McpBenchServer> {
    const ref: { server?: McpBenchServer } = {};
    const http = createServer((req, res) => void ref.server!.handle(req, res));
    const server = new McpBenchServer(http, listDelayMs, toolName);
    ref.server = server;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}/mcp`;
  }

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private async handle(
    req: IncomingMessage,
    res: Parameters<StreamableHTTPServerTransport['handleRequest']>[1],
  ) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const body = raw === '' ? undefined : (JSON.parse(raw) as { method?: string });
    if (body?.method === 'tools/list' && this.listDelayMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, this.listDelayMs));
    }
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    let transport = sessionId === undefined ? undefined : this.sessions.get(sessionId);
    if (transport === undefined) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, created);
        },
      });
      const mcp = new McpServer({ name: 'bench', version: '1.0.0' });
      mcp.registerTool(
        this.toolName,
        { description: 'Echoes.', inputSchema: { text: z.string() } },
        (args) => ({
          content: [{ type: 'text', text: args.text }],
        }),
      );
      await mcp.connect(created);
      transport = created;
    }
    await transport.handleRequest(req, res, body);
  }
}
