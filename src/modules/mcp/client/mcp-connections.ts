import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { DomainError } from '../../../common/errors/index.js';
import { Metrics } from '../../../observability/metrics/index.js';
import { ATTR } from '../../../observability/tracing/index.js';
import { connectionConfigHash, type McpConnectionConfig } from '../servers/mcp-connection-config.js';
import { McpClientFactory, withTimeout, type ConnectedClient } from './mcp-client-factory.js';
import { mcpClientSdk } from './mcp-client-sdk.js';
import { describeFailure } from './mcp-failure.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { inMcpRequestSpan, type McpRequestOutcome } from './mcp-request-span.js';
import { readToolList } from './read-tool-list.js';

/** A session is recycled before Node's abort-listener warnings start (TOOLCHAIN "MCP client sessions"). */
const MAX_CALLS_PER_SESSION = 1_000;
const MAX_SESSION_AGE_MS = 15 * 60_000;
/** A server that never sends `tools/list_changed` still has its list read again after this. */
const TOOL_LIST_TTL_MS = 10 * 60_000;

interface Session {
  hash: string;
  client: Client;
  connection: ConnectedClient;
  createdAt: number;
  calls: number;
  inFlight: number;
  retiring: boolean;
}

interface CachedList {
  tools: McpToolInfo[];
  at: number;
}

/**
 * Connections and tool lists per connection config (keyed by its hash, so an edited server is a new
 * key on every replica): sessions are reused across runs and recycled after many calls or some age,
 * tool lists are cached until the server says `tools/list_changed`, the TTL lapses or the config
 * changes. Toggling a tool is not part of the key: it never forces a reconnect.
 */
@Injectable()
export class McpConnections implements OnModuleDestroy {
  private readonly logger = new Logger(McpConnections.name);
  private readonly sessions = new Map<string, Promise<Session>>();
  private readonly lists = new Map<string, CachedList>();
  private readonly loading = new Map<string, Promise<McpToolInfo[]>>();

  constructor(
    private readonly factory: McpClientFactory,
    private readonly metrics: Metrics,
  ) {}

  /**
   * The server's tools: the cached list, or a fresh one read within the server's timeout (`fresh`:
   * always read now, on the pooled session). At the timeout the reading is aborted, not only awaited
   * no longer: no page is asked after it.
   */
  async listTools(config: McpConnectionConfig, options: { fresh?: boolean } = {}): Promise<McpToolInfo[]> {
    const hash = connectionConfigHash(config);
    if (options.fresh === true) return this.readListWithin(config, hash);
    const cached = this.lists.get(hash);
    if (cached !== undefined && Date.now() - cached.at < TOOL_LIST_TTL_MS) return cached.tools;
    let loading = this.loading.get(hash);
    if (loading === undefined) {
      loading = this.readListWithin(config, hash).finally(() => this.loading.delete(hash));
      this.loading.set(hash, loading);
    }
    return loading;
  }

  /** A list read from the server (connecting first when no session is open), timed by the metrics. */
  private readListWithin(config: McpConnectionConfig, hash: string): Promise<McpToolInfo[]> {
    const controller = new AbortController();
    const started = performance.now();
    const read = withTimeout(this.readList(config, hash, controller.signal), config.timeoutMs, controller);
    const timed = (outcome: 'ok' | 'error') => () =>
      this.metrics.mcpDiscovery(config.slug, outcome, (performance.now() - started) / 1000);
    read.then(timed('ok'), timed('error'));
    return read;
  }

  /** Whether a list for this config is cached now (for benchmarks and tests). */
  hasCachedList(config: McpConnectionConfig): boolean {
    return this.lists.has(connectionConfigHash(config));
  }

  /** Stores a list read elsewhere (the admin `test` route's fresh connection). */
  remember(config: McpConnectionConfig, tools: McpToolInfo[]): void {
    this.lists.set(connectionConfigHash(config), { tools, at: Date.now() });
  }

  /** Calls a tool on the pooled session; `signal` aborting sends MCP `notifications/cancelled`. */
  async callTool(
    config: McpConnectionConfig,
    name: string,
    args: Record<string, unknown>,
    signal: AbortSignal,
    timeoutMs: number,
  ): Promise<CallToolResult> {
    const started = performance.now();
    const request = {
      method: 'tools/call' as const,
      server: config.slug,
      tool: name,
      signal,
      onEnd: (outcome: McpRequestOutcome) =>
        this.metrics.mcpToolCall(config.slug, outcome, (performance.now() - started) / 1000),
    };
    return inMcpRequestSpan(request, async (meta, span) => {
      const session = await withTimeout(this.session(config), config.timeoutMs);
      const sessionId = (session.connection.transport as { sessionId?: unknown }).sessionId;
      if (typeof sessionId === 'string' && span.isRecording())
        span.setAttribute(ATTR.mcpSessionId, sessionId);
      session.calls++;
      session.inFlight++;
      try {
        const params = { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) };
        return (await session.client.callTool(params, undefined, {
          signal,
          timeout: timeoutMs,
        })) as CallToolResult;
      } catch (error) {
        if (!signal.aborted) this.dropIfBroken(session, error);
        throw session.connection.failureOf(error);
      } finally {
        session.inFlight--;
        this.closeIfRetired(session);
      }
    });
  }

  async onModuleDestroy(): Promise<void> {
    const sessions = await Promise.allSettled([...this.sessions.values()]);
    this.sessions.clear();
    const open = sessions.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    await Promise.all(open.map((session) => session.client.close().catch(() => undefined)));
  }

  private async readList(
    config: McpConnectionConfig,
    hash: string,
    signal: AbortSignal,
  ): Promise<McpToolInfo[]> {
    const session = await this.session(config);
    session.inFlight++;
    try {
      const tools = await readToolList(session.client, config.slug, { timeoutMs: config.timeoutMs, signal });
      this.lists.set(hash, { tools, at: Date.now() });
      return tools;
    } catch (error) {
      // A list refused for its length leaves the session usable; anything else is judged as usual.
      if (!(error instanceof DomainError)) this.dropIfBroken(session, error);
      throw session.connection.failureOf(error);
    } finally {
      session.inFlight--;
      this.closeIfRetired(session);
    }
  }

  /** The pooled session for this config, recycled when old or heavily used. */
  private async session(config: McpConnectionConfig): Promise<Session> {
    const hash = connectionConfigHash(config);
    const existing = this.sessions.get(hash);
    if (existing !== undefined) {
      const session = await existing.catch(() => null);
      if (session !== null && !session.retiring) {
        const old = Date.now() - session.createdAt > MAX_SESSION_AGE_MS;
        if (!old && session.calls < MAX_CALLS_PER_SESSION) return session;
        this.retire(session);
      }
    }
    const opening = this.open(config, hash);
    this.sessions.set(hash, opening);
    opening.catch(() => {
      if (this.sessions.get(hash) === opening) this.sessions.delete(hash);
    });
    return opening;
  }

  private async open(config: McpConnectionConfig, hash: string): Promise<Session> {
    const connection = await this.factory.connect(config);
    const { client, transport } = connection;
    const session: Session = {
      hash,
      client,
      connection,
      createdAt: Date.now(),
      calls: 0,
      inFlight: 0,
      retiring: false,
    };
    client.setNotificationHandler(mcpClientSdk().ToolListChangedNotificationSchema, () => {
      this.lists.delete(hash);
    });
    // The client's own handler (set by `connect`) fails the requests still waiting: keep it.
    const clientOnClose = transport.onclose;
    transport.onclose = () => {
      clientOnClose?.();
      void this.forget(session);
    };
    return session;
  }

  private dropIfBroken(session: Session, error: unknown): void {
    // A JSON-RPC error the server answered leaves the session usable; anything else (HTTP, transport) does not.
    const { McpError, ErrorCode } = mcpClientSdk();
    const answered =
      error instanceof McpError &&
      error.code !== (ErrorCode.RequestTimeout as number) &&
      error.code !== (ErrorCode.ConnectionClosed as number);
    if (answered) return;
    this.logger.debug({ code: describeFailure(error, { headers: {} }).code }, 'MCP session dropped');
    this.retire(session);
  }

  private retire(session: Session): void {
    session.retiring = true;
    void this.forget(session);
    this.closeIfRetired(session);
  }

  private async forget(session: Session): Promise<void> {
    const current = this.sessions.get(session.hash);
    if (current === undefined || (await current.catch(() => null)) !== session) return;
    if (this.sessions.get(session.hash) === current) this.sessions.delete(session.hash);
  }

  private closeIfRetired(session: Session): void {
    if (session.retiring && session.inFlight === 0) void session.client.close().catch(() => undefined);
  }
}
