import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { z } from 'zod';

export interface TestTool {
  name: string;
  description?: string;
  /** zod shape of the arguments (the SDK's `inputSchema`). */
  input?: Record<string, z.ZodType>;
  annotations?: ToolAnnotations;
  /** Defaults to echoing the arguments as text. */
  handler?: (args: Record<string, unknown>, signal: AbortSignal) => Promise<CallToolResult> | CallToolResult;
}

export interface TestMcpServerOptions {
  transport: 'streamable_http' | 'sse';
  tools: TestTool[];
  /** Delay before answering `tools/list`. */
  listDelayMs?: number;
  /**
   * Answers a request itself instead of the SDK server (a hostile or failing server): return true once
   * `res` is answered. Sees the request's first JSON-RPC message (after it is recorded).
   */
  respond?: (
    message: { method?: string; id?: unknown },
    req: IncomingMessage,
    res: ServerResponse,
  ) => boolean;
  /** Path of the URL (default `/mcp`, or `/sse` for the legacy transport). */
  path?: string;
}

/** One JSON-RPC message the server received, with the HTTP headers it came with. */
export interface ReceivedMessage {
  method?: string;
  params?: Record<string, unknown>;
  id?: unknown;
  headers: IncomingMessage['headers'];
  /** `Date.now()` when it arrived (for ordering, never for timing asserts). */
  at: number;
}

/**
 * An MCP server from the SDK on 127.0.0.1 (port 0): streamable HTTP (stateful sessions, so a
 * `notifications/cancelled` reaches the request it names) or the legacy HTTP+SSE transport. Records
 * every JSON-RPC message it receives.
 */
export class TestMcpServer {
  readonly received: ReceivedMessage[] = [];
  /** Requests whose handler saw its signal abort (the client cancelled them). */
  readonly aborted: string[] = [];
  listDelayMs: number;
  private readonly sessions = new Map<string, StreamableHTTPServerTransport | SSEServerTransport>();

  private constructor(
    private readonly http: Server,
    private readonly options: TestMcpServerOptions,
  ) {
    this.listDelayMs = options.listDelayMs ?? 0;
  }

  static async start(options: TestMcpServerOptions): Promise<TestMcpServer> {
    const ref: { instance?: TestMcpServer } = {};
    const http = createServer((req, res) => void ref.instance!.handle(req, res));
    const instance = new TestMcpServer(http, options);
    ref.instance = instance;
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    return instance;
  }

  get port(): number {
    return (this.http.address() as AddressInfo).port;
  }

  get url(): string {
    const path = this.options.path ?? (this.options.transport === 'sse' ? '/sse' : '/mcp');
    return `http://127.0.0.1:${this.port}${path}`;
  }

  calls(tool?: string): ReceivedMessage[] {
    return this.received.filter(
      (m) => m.method === 'tools/call' && (tool === undefined || m.params?.name === tool),
    );
  }

  methods(): string[] {
    return this.received.flatMap((m) => (m.method === undefined ? [] : [m.method]));
  }

  /** When the latest `tools/list` answer was released (after the delay). */
  listAnsweredAt: number[] = [];

  /** Adds a tool to every session (the SDK then sends `notifications/tools/list_changed`). */
  addTool(tool: TestTool): void {
    this.options.tools.push(tool);
    for (const server of this.servers) this.register(server, tool);
  }

  private readonly servers: McpServer[] = [];

  async close(): Promise<void> {
    for (const transport of this.sessions.values()) await transport.close().catch(() => undefined);
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private newServer(): McpServer {
    const server = new McpServer(
      { name: 'test-mcp', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true } } },
    );
    for (const tool of this.options.tools) this.register(server, tool);
    this.servers.push(server);
    return server;
  }

  private register(server: McpServer, tool: TestTool): void {
    server.registerTool(
      tool.name,
      {
        description: tool.description ?? `The ${tool.name} tool.`,
        inputSchema: tool.input ?? {},
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      },
      async (args: Record<string, unknown>, extra: { signal: AbortSignal; requestId: unknown }) => {
        extra.signal.addEventListener('abort', () => this.aborted.push(String(extra.requestId)));
        if (tool.handler !== undefined) return tool.handler(args, extra.signal);
        return { content: [{ type: 'text' as const, text: JSON.stringify(args) }] };
      },
    );
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req);
    const body = raw === '' ? undefined : (JSON.parse(raw) as unknown);
    for (const message of Array.isArray(body) ? body : body === undefined ? [] : [body]) {
      const m = message as Omit<ReceivedMessage, 'headers'>;
      this.received.push({
        method: m.method,
        params: m.params,
        id: m.id,
        headers: req.headers,
        at: Date.now(),
      });
      if (m.method === 'tools/list' && this.listDelayMs > 0) {
        await new Promise((resolve) => setTimeout(resolve, this.listDelayMs));
      }
      if (m.method === 'tools/list') this.listAnsweredAt.push(Date.now());
    }
    const first = (Array.isArray(body) ? body[0] : body) as { method?: string; id?: unknown } | undefined;
    if (first !== undefined && this.options.respond?.(first, req, res) === true) return;
    if (this.options.transport === 'sse') return this.handleSse(req, res, body);
    const sessionId = req.headers['mcp-session-id'] as string | undefined;
    let transport =
      sessionId === undefined ? undefined : (this.sessions.get(sessionId) as StreamableHTTPServerTransport);
    if (transport === undefined) {
      if (sessionId !== undefined) {
        res.writeHead(404).end();
        return;
      }
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          this.sessions.set(id, transport!);
        },
      });
      await this.newServer().connect(transport);
    }
    await transport.handleRequest(req, res, body);
  }

  private async handleSse(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const transport = new SSEServerTransport('/messages', res);
      this.sessions.set(transport.sessionId, transport);
      await this.newServer().connect(transport);
      return;
    }
    const transport = this.sessions.get(url.searchParams.get('sessionId') ?? '') as
      SSEServerTransport | undefined;
    if (req.method !== 'POST' || transport === undefined) {
      res.writeHead(404).end();
      return;
    }
    await transport.handlePostMessage(req, res, body);
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
