import { Injectable } from '@nestjs/common';
import type { z } from 'zod';
import type { OfferedTool, UnavailableComponent } from '../../agent-runtime/index.js';
import { LargeToolResults } from '../../workspace/index.js';
import { ToolsErrors, type RegisteredTool, type ToolInvocation } from '../../tools/index.js';
import { McpConnections } from '../client/mcp-connections.js';
import { McpDiscovery } from '../client/mcp-discovery.js';
import { describeFailure } from '../client/mcp-failure.js';
import type { McpToolInfo } from '../client/mcp-tool-info.js';
import { McpErrorCode, McpErrors } from '../mcp.errors.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import type { McpServerEntity } from '../servers/mcp-server.entity.js';
import { McpServersRepository } from '../servers/mcp-servers.repository.js';
import { resultText } from './mcp-result-content.js';
import { DomainError } from '../../../common/errors/domain-error.js';

/** The SDK's own request timeout sits just past ours, so the executor's timeout (and its cancel) fires first. */
const SDK_TIMEOUT_MARGIN_MS = 1_000;

export interface LoadedServerTools {
  tools: OfferedTool[];
  unavailable: UnavailableComponent[];
}

/**
 * Loads the tools of enabled MCP servers for a run: servers in parallel, each within its own timeout;
 * a server that fails is reported unavailable and costs the run nothing else. Disabled tools are left
 * out (so they are neither offered nor executable). The Skills module asks for one server's tools
 * mid-run through `load([slug])`.
 */
@Injectable()
export class McpToolLoader {
  constructor(
    private readonly repository: McpServersRepository,
    private readonly discovery: McpDiscovery,
    private readonly connections: McpConnections,
    private readonly largeResults: LargeToolResults,
  ) {}

  async load(slugs: readonly string[]): Promise<LoadedServerTools> {
    const rows = await this.repository.findEnabledBySlugs([...new Set(slugs)]);
    const loaded = await Promise.all(rows.map((row) => this.loadServer(row)));
    return {
      tools: loaded.flatMap((server) => server.tools),
      unavailable: loaded.flatMap((server) => server.unavailable),
    };
  }

  private async loadServer(row: McpServerEntity): Promise<LoadedServerTools> {
    const config = this.discovery.configOf(row);
    const result = await this.discovery.discover(row);
    if (config === null || !result.ok) {
      const error = result.ok
        ? { code: McpErrorCode.TRANSPORT_NOT_SUPPORTED, message: 'stdio' }
        : result.error;
      return {
        tools: [],
        unavailable: [
          { component: 'mcp', server: row.slug, reason: error.message, code: error.code, available: false },
        ],
      };
    }
    const disabled = new Set(row.disabledTools);
    const tools = result.tools
      .filter((tool) => !disabled.has(tool.name))
      .map((tool) => this.offered(row.slug, config, tool));
    return { tools, unavailable: [] };
  }

  private offered(slug: string, config: McpConnectionConfig, info: McpToolInfo): OfferedTool {
    const execution: RegisteredTool = {
      metadata: {
        name: info.name,
        category: 'mcp',
        tags: [slug],
        displayName: info.name,
        description: info.description,
        // JSON Schema, not zod: the arguments guard passes them through and the server validates them.
        schema: info.inputSchema as unknown as z.ZodType,
        resources: [],
        forbiddenForSubagents: false,
        base: false,
        timeoutMs: config.sseReadTimeoutMs,
      },
      handler: (args, invocation) => this.call(config, info.name, args, invocation),
      availability: () => ({ available: true, reason: null }),
    };
    return {
      name: info.name,
      description: info.description,
      parameters: info.inputSchema,
      execution,
      origin: `MCP server "${slug}"`,
      server: slug,
    };
  }

  private async call(
    config: McpConnectionConfig,
    name: string,
    args: unknown,
    invocation: ToolInvocation,
  ): Promise<string> {
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw ToolsErrors.invalidArguments(name, [{ path: '(root)', message: 'expected an object' }]);
    }
    let result;
    try {
      result = await this.connections.callTool(
        config,
        name,
        args as Record<string, unknown>,
        invocation.signal,
        config.sseReadTimeoutMs + SDK_TIMEOUT_MARGIN_MS,
      );
    } catch (error) {
      if (invocation.signal.aborted) throw error; // the executor reports the timeout or the cancellation
      const failure = describeFailure(error, config);
      throw new DomainError('unavailable', failure.code, failure.message, {
        details: { server: config.slug, tool: name },
      });
    }
    const text = resultText(result);
    if (result.isError === true) throw McpErrors.toolError(name, text);
    return this.largeResults.offload(text, invocation);
  }
}
