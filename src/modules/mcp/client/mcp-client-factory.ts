import { Injectable } from '@nestjs/common';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { SafeHttpClient } from '../../../common/http-safety/index.js';
import { KNOWLEDGE_MCP_SLUG } from '../builtin/builtin-mcp-servers.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import { McpErrors } from '../mcp.errors.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import { mcpClientSdk } from './mcp-client-sdk.js';
import { McpTimeoutError } from './mcp-failure.js';

export const MCP_CLIENT_INFO = { name: 'yuxi-tool-platform', version: '0.1.0' };

export interface ConnectedClient {
  client: Client;
  transport: Transport;
}

/**
 * Connects an SDK client to a server. Every request of both transports (messages, the event streams,
 * each redirect hop) goes through the guarded fetch, which checks addresses at connect time and keeps
 * the configured headers from a redirect target on another origin. The builtin `knowledge` server is
 * this application's own endpoint: it goes through `KnowledgeMcpEndpoint` (exactly that URL, a
 * delegation token per request), and no other server may name that URL.
 */
@Injectable()
export class McpClientFactory {
  constructor(
    private readonly http: SafeHttpClient,
    private readonly knowledge: KnowledgeMcpEndpoint,
  ) {}

  async connect(config: McpConnectionConfig, signal?: AbortSignal): Promise<ConnectedClient> {
    const transport = this.transport(config);
    const client = new (mcpClientSdk().Client)(MCP_CLIENT_INFO, { capabilities: {} });
    try {
      await withTimeout(client.connect(transport, { timeout: config.timeoutMs, signal }), config.timeoutMs);
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return { client, transport };
  }

  private transport(config: McpConnectionConfig): Transport {
    const { SSEClientTransport, StreamableHTTPClientTransport } = mcpClientSdk();
    if (config.slug === KNOWLEDGE_MCP_SLUG) {
      return new StreamableHTTPClientTransport(new URL(this.knowledge.url), {
        fetch: this.knowledge.fetch,
        reconnectionOptions: NO_RECONNECT,
      });
    }
    if (this.knowledge.isEndpoint(config.url))
      throw McpErrors.urlNotAllowed(config.url, 'knowledge_endpoint');
    const url = new URL(config.url);
    const requestInit: RequestInit = { headers: { ...config.headers } };
    // Redirects are left to the guarded fetch: every hop checked, headers kept from other origins.
    const common = { fetch: this.http.safeFetch, requestInit, redirectPolicy: 'follow' as const };
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

/** Rejects with `McpTimeoutError` once `timeoutMs` passes (the work itself is stopped by its own signal). */
export function withTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new McpTimeoutError(timeoutMs)), timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
