import { Injectable } from '@nestjs/common';
import { Metrics } from '../../../observability/metrics/index.js';
import { KNOWLEDGE_UNAVAILABLE_RPC_CODE } from '../../knowledge/index.js';
import { KNOWLEDGE_MCP_SLUG } from '../builtin/builtin-mcp-servers.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import { McpErrorCode, McpErrors } from '../mcp.errors.js';
import { connectionConfigOf } from '../servers/mcp-server-view.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import type { McpServerEntity } from '../servers/mcp-server.entity.js';
import { McpServersService } from '../servers/mcp-servers.service.js';
import { McpClientFactory, withTimeout } from './mcp-client-factory.js';
import { mcpClientSdk } from './mcp-client-sdk.js';
import { McpConnections } from './mcp-connections.js';
import { describeFailure, type McpFailure } from './mcp-failure.js';
import type { McpToolInfo } from './mcp-tool-info.js';
import { readToolList } from './read-tool-list.js';

export type DiscoveryResult = { ok: true; tools: McpToolInfo[] } | { ok: false; error: McpFailure };

/** Reads a server's tools for the admin routes and the runtime; failures are described, never thrown raw. */
@Injectable()
export class McpDiscovery {
  constructor(
    private readonly servers: McpServersService,
    private readonly connections: McpConnections,
    private readonly factory: McpClientFactory,
    private readonly knowledge: KnowledgeMcpEndpoint,
    private readonly metrics: Metrics,
  ) {}

  /** The builtin `knowledge` server is reached at this deployment's endpoint, never with headers. */
  configOf(row: McpServerEntity): McpConnectionConfig | null {
    if (isKnowledge(row)) {
      const config = connectionConfigOf(row, {});
      return config === null ? null : { ...config, url: this.knowledge.url, headers: {} };
    }
    return connectionConfigOf(row, this.servers.headersOf(row));
  }

  /**
   * The tool list of one server: cached, except for `knowledge`, whose list is read afresh for each
   * run (a local call) so that switching Knowledge off shows at the next run's discovery.
   */
  async discover(row: McpServerEntity): Promise<DiscoveryResult> {
    const config = this.configOf(row);
    if (config === null) return { ok: false, error: stdioFailure(row) };
    try {
      const fresh = isKnowledge(row);
      return { ok: true, tools: await this.connections.listTools(config, { fresh }) };
    } catch (error) {
      return { ok: false, error: failureOf(error, config) };
    }
  }

  /** The tool list or 503 `mcp.server_unavailable` (409 for a legacy stdio row). */
  async requireTools(row: McpServerEntity): Promise<McpToolInfo[]> {
    if (row.transport === 'stdio') throw McpErrors.transportNotSupported(row.slug, row.transport);
    const result = await this.discover(row);
    if (!result.ok) throw McpErrors.serverUnavailable(row.slug, result.error);
    return result.tools;
  }

  /** A connection made now, on its own (not the pool): what the admin `test` route reports. */
  async testNow(row: McpServerEntity): Promise<{ latencyMs: number } & DiscoveryResult> {
    const config = this.configOf(row);
    const started = performance.now();
    if (config === null) return { ok: false, error: stdioFailure(row), latencyMs: 0 };
    const controller = new AbortController();
    try {
      const work = (async () => {
        const connection = await this.factory.connect(config, controller.signal);
        const { client } = connection;
        try {
          const signal = controller.signal;
          return await readToolList(client, config.slug, { timeoutMs: config.timeoutMs, signal });
        } catch (error) {
          throw connection.failureOf(error);
        } finally {
          await client.close().catch(() => undefined);
        }
      })();
      const tools = await withTimeout(work, config.timeoutMs, controller);
      this.connections.remember(config, tools);
      this.metrics.mcpDiscovery(config.slug, 'ok', (performance.now() - started) / 1000);
      return { ok: true, tools, latencyMs: Math.round(performance.now() - started) };
    } catch (error) {
      controller.abort();
      this.metrics.mcpDiscovery(config.slug, 'error', (performance.now() - started) / 1000);
      return {
        ok: false,
        error: failureOf(error, config),
        latencyMs: Math.round(performance.now() - started),
      };
    }
  }
}

function isKnowledge(row: McpServerEntity): boolean {
  return row.slug === KNOWLEDGE_MCP_SLUG && row.source === 'builtin';
}

/** The knowledge server's "switched off" answer is an unavailable server, not a protocol fault. */
function failureOf(error: unknown, config: McpConnectionConfig): McpFailure {
  if (
    config.slug === KNOWLEDGE_MCP_SLUG &&
    error instanceof mcpClientSdk().McpError &&
    error.code === KNOWLEDGE_UNAVAILABLE_RPC_CODE
  ) {
    return { code: McpErrorCode.SERVER_UNAVAILABLE, message: 'Knowledge bases are switched off.' };
  }
  return describeFailure(error, config);
}

function stdioFailure(row: McpServerEntity): McpFailure {
  const { message } = McpErrors.transportNotSupported(row.slug, row.transport);
  return { code: McpErrorCode.TRANSPORT_NOT_SUPPORTED, message };
}
