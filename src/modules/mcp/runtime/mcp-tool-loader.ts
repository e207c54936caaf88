import { Injectable, Logger } from '@nestjs/common';
import type { OfferedTool, ToolSourceContext, UnavailableComponent } from '../../agent-runtime/index.js';
import type { DelegationGrant } from '../../knowledge/index.js';
import {
  ToolRegistry,
  ToolsErrors,
  type JsonSchemaArgs,
  type RegisteredTool,
  type ToolInvocation,
} from '../../tools/index.js';
import { McpConnections } from '../client/mcp-connections.js';
import { KNOWLEDGE_MCP_SLUG } from '../builtin/builtin-mcp-servers.js';
import { McpDiscovery } from '../client/mcp-discovery.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import { describeFailure } from '../client/mcp-failure.js';
import type { McpToolInfo } from '../client/mcp-tool-info.js';
import { McpErrorCode, McpErrors } from '../mcp.errors.js';
import type { McpConnectionConfig } from '../servers/mcp-connection-config.js';
import type { McpServerEntity } from '../servers/mcp-server.entity.js';
import { McpServersRepository } from '../servers/mcp-servers.repository.js';
import { McpToolSwitches } from '../servers/mcp-tool-switches.js';
import { resultText } from './mcp-result-content.js';
import { McpToolSchemas } from './mcp-tool-schemas.js';
import { userFacingCallError, userFacingReason } from './user-facing-failure.js';

/** The SDK's own request timeout sits just past ours, so the executor's timeout (and its cancel) fires first. */
const SDK_TIMEOUT_MARGIN_MS = 1_000;

/** What a load needs of the run: whom the knowledge server's delegation speaks for, and how far. */
export type RunScope = Pick<ToolSourceContext, 'runId' | 'threadId'> & {
  actor: { id: string };
  snapshot: { knowledges: readonly string[] };
};

/** Runs one call of a server's tool in whatever surroundings the server needs (a delegation). */
type CallWrapper = (invocation: ToolInvocation, work: () => Promise<string>) => Promise<string>;
const direct: CallWrapper = (_invocation, work) => work();

export interface LoadedServerTools {
  tools: OfferedTool[];
  unavailable: UnavailableComponent[];
}

/**
 * Loads the tools of enabled MCP servers for a run: servers in parallel, each within its own timeout;
 * a server that fails is reported unavailable (its slug and a fixed reason: never its URL) and costs
 * the run nothing else. Disabled tools are left out (so they are neither offered nor executable), and so
 * is a tool named like a tool of the registry (`write_file`, `install_skill`, …): it is reported
 * unavailable with `mcp.tool_name_reserved`, the run goes on, and a call of that name can only reach
 * the registry's tool when the run offered it as such. A tool's input schema is offered as the server
 * gave it and compiled into the validator that checks each call's arguments before the server is
 * asked (`McpToolSchemas`); a tool whose schema cannot be compiled (not JSON Schema, an unresolvable
 * `$ref`, too large or deep, a pattern that could backtrack without end) is reported unavailable with
 * `mcp.tool_schema_invalid` and left out. The switches are checked again before every
 * call (`McpToolSwitches`), so switching a tool or server off stops runs under way. The builtin
 * `knowledge` server is discovered and
 * called as the run's user: every request carries a fresh delegation token for this run, its thread and
 * the knowledge bases of its snapshot (a run with none is not offered the knowledge tools at all).
 */
@Injectable()
export class McpToolLoader {
  private readonly logger = new Logger(McpToolLoader.name);

  constructor(
    private readonly repository: McpServersRepository,
    private readonly discovery: McpDiscovery,
    private readonly connections: McpConnections,
    private readonly knowledge: KnowledgeMcpEndpoint,
    private readonly registry: ToolRegistry,
    private readonly switches: McpToolSwitches,
    private readonly schemas: McpToolSchemas,
  ) {}

  async load(slugs: readonly string[], run: RunScope): Promise<LoadedServerTools> {
    const rows = await this.repository.findEnabledBySlugs([...new Set(slugs)]);
    const loaded = await Promise.all(
      rows.map((row) => {
        if (row.slug !== KNOWLEDGE_MCP_SLUG || row.source !== 'builtin') return this.loadServer(row);
        // A run without knowledge bases has nothing for the knowledge tools to reach: not even asked.
        if (run.snapshot.knowledges.length === 0) return Promise.resolve({ tools: [], unavailable: [] });
        const grant = (userId: string): DelegationGrant => ({
          userId,
          runId: run.runId,
          threadId: run.threadId,
          kbIds: run.snapshot.knowledges,
        });
        return this.knowledge.as(grant(run.actor.id), () =>
          this.loadServer(row, (invocation, work) =>
            this.knowledge.as(grant(invocation.context.user.id), work),
          ),
        );
      }),
    );
    return {
      tools: loaded.flatMap((server) => server.tools),
      unavailable: loaded.flatMap((server) => server.unavailable),
    };
  }

  private async loadServer(row: McpServerEntity, wrap: CallWrapper = direct): Promise<LoadedServerTools> {
    const config = this.discovery.configOf(row);
    const result = await this.discovery.discover(row);
    if (config === null || !result.ok) {
      const error = result.ok
        ? { code: McpErrorCode.TRANSPORT_NOT_SUPPORTED, message: 'stdio' }
        : result.error;
      return {
        tools: [],
        unavailable: [
          {
            component: 'mcp',
            server: row.slug,
            reason: userFacingReason(error),
            code: error.code,
            available: false,
          },
        ],
      };
    }
    const disabled = new Set(row.disabledTools);
    const compiled = await this.schemas.compiled(row.slug, result.tools);
    const tools: OfferedTool[] = [];
    const unavailable: UnavailableComponent[] = [];
    for (const tool of result.tools) {
      if (disabled.has(tool.name)) continue;
      if (this.registry.has(tool.name)) {
        unavailable.push({
          component: 'mcp',
          server: row.slug,
          reason: `The tool "${tool.name}" has the name of a tool of this service and is left out.`,
          code: McpErrorCode.TOOL_NAME_RESERVED,
          available: false,
        });
        continue;
      }
      const schema = compiled.get(tool.name);
      if (schema === undefined || !schema.ok) {
        const reason = schema?.reason ?? 'its input schema was not compiled';
        this.logger.warn(`MCP server "${row.slug}": tool "${tool.name}" left out: ${reason}`);
        unavailable.push({
          component: 'mcp',
          server: row.slug,
          reason: `The tool "${tool.name}" has an input schema this service cannot check and is left out.`,
          code: McpErrorCode.TOOL_SCHEMA_INVALID,
          available: false,
        });
        continue;
      }
      tools.push(this.offered(row.slug, config, tool, schema.args, wrap));
    }
    return { tools, unavailable };
  }

  private offered(
    slug: string,
    config: McpConnectionConfig,
    info: McpToolInfo,
    schema: JsonSchemaArgs,
    wrap: CallWrapper,
  ): OfferedTool {
    const execution: RegisteredTool = {
      metadata: {
        name: info.name,
        category: 'mcp',
        tags: [slug],
        displayName: info.name,
        description: info.description,
        schema,
        resources: [],
        forbiddenForSubagents: false,
        // A server's annotations are hints from that server: a read-only hint spares nothing but the
        // side-effect kind; `destructiveHint` is what the `auto` approval policy asks about.
        sideEffects: info.annotations?.readOnlyHint === true ? 'none' : 'external',
        mcp: { server: slug, ...(info.annotations === undefined ? {} : { annotations: info.annotations }) },
        base: false,
        // Whatever the server calls its tool, its results pass the large-result stage.
        boundsOwnOutput: false,
        timeoutMs: config.sseReadTimeoutMs,
      },
      handler: (args, invocation) => wrap(invocation, () => this.call(config, info.name, args, invocation)),
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
    await this.switches.assertEnabled(config.slug, name);
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
      throw userFacingCallError(config.slug, name, describeFailure(error, config));
    }
    const text = resultText(result);
    if (result.isError === true) throw McpErrors.toolError(name, text);
    return text; // an oversized result is saved by the executor's large-result stage
  }
}
