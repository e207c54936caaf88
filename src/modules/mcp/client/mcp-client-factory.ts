import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SafeHttpClient } from '../../../common/http-safety/index.js';
import { withTraceHeaders } from '../../../observability/tracing/index.js';
import { KNOWLEDGE_MCP_SLUG } from '../builtin/builtin-mcp-servers.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import { McpErrors } from '../mcp.errors.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import { mcpClientSdk } from './mcp-client-sdk.js';
import { McpTimeoutError } from './mcp-failure.js';
import { ResponseBudget } from './response-budget.js';

export const MCP_CLIENT_INFO = { name: 'yuxi-tool-platform', version: '0.1.0' };

export interface ConnectedClient {
  client: Client;
  transport: Transport;
  /**
   * What a failed request of this connection is reported as: a response over the byte cap closes the
   * client, so its requests fail as "connection closed"; the cap is the reason.
   */
  failureOf: (error: unknown) => unknown;
}

/**
 * Connects an SDK client to a server. Every request of both transports (messages, the event streams,
 * each redirect hop) goes through the guarded fetch, which checks addresses at connect time and keeps
 * the configured headers from a redirect target on another origin. The builtin `knowledge` server is
 * this application's own endpoint: it goes through `KnowledgeMcpEndpoint` (exactly that URL, a
 * delegation token per request), and no other server may name that URL. Every response body is
 * counted against MCP_MAX_RESPONSE_BYTES (`ResponseBudget`). Each request carries the W3C trace context
 * active when it is sent (`withTraceHeaders`), not the one of the connection's opening: sessions are pooled.
 */
@Injectable()
export class McpClientFactory {
  constructor(
    private readonly http: SafeHttpClient,
    private readonly knowledge: KnowledgeMcpEndpoint,
    private readonly config: AppConfig,
  ) {}

  async connect(config: McpConnectionConfig, signal?: AbortSignal): Promise<ConnectedClient> {
    const limit = this.config.mcp.maxResponseBytes;
    const budget = new ResponseBudget(limit, () => McpErrors.responseTooLarge(config.slug, limit));
    const transport = this.transport(config, budget);
    const client = new (mcpClientSdk().Client)(MCP_CLIENT_INFO, { capabilities: {} });
    budget.onExceeded = () => void client.close().catch(() => undefined);
    const failureOf = (error: unknown): unknown => budget.exceeded ?? error;
    try {
      await withTimeout(client.connect(transport, { timeout: config.timeoutMs, signal }), config.timeoutMs);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw failureOf(error);
    }
    return { client, transport, failureOf };
  }

  private transport(config: McpConnectionConfig, budget: ResponseBudget): Transport {
    const { SSEClientTransport, StreamableHTTPClientTransport } = mcpClientSdk();
    if (config.slug === KNOWLEDGE_MCP_SLUG) {
      return new StreamableHTTPClientTransport(new URL(this.knowledge.url), {
        fetch: budget.wrap(withTraceHeaders(this.knowledge.fetch)),
        reconnectionOptions: NO_RECONNECT,
      });
    }
    if (this.knowledge.isEndpoint(config.url))
      throw McpErrors.urlNotAllowed(config.url, 'knowledge_endpoint');
    const url = new URL(config.url);
    const requestInit: RequestInit = { headers: { ...config.headers } };
    // Redirects are left to the guarded fetch: every hop checked, headers kept from other origins.
    const common = {
      fetch: budget.wrap(withTraceHeaders(this.http.safeFetch)),
      requestInit,
      redirectPolicy: 'follow' as const,
    };
    if (config.transport === 'sse') return new SSEClientTransport(url, common);
    return new StreamableHTTPClientTransport(url, { ...common, reconnectionOptions: NO_RECONNECT });
  }
}

/** A dropped GET stream is not re-opened in a loop: the pool reconnects on the next use instead. */
const NO_RECONNECT = {
  maxRetries: 0,
  initialReconnectionDelay: 1000,
  maxReconnectionDelay: 1000,
  reconnectionDelayGrowFactor: 1,
};

/**
 * Rejects with `McpTimeoutError` once `timeoutMs` passes, aborting `controller` then: the work must
 * stop on its signal (a rejected await alone leaves it running in the background).
 */
export function withTimeout<T>(
  work: Promise<T>,
  timeoutMs: number,
  controller?: AbortController,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new McpTimeoutError(timeoutMs);
      controller?.abort(error);
      reject(error);
    }, timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
