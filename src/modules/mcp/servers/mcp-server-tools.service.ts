import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { pageByKey } from '../../../common/pagination/key-cursor.js';
import type { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { McpDiscovery } from '../client/mcp-discovery.js';
import { KnowledgeMcpEndpoint } from '../knowledge/knowledge-mcp-endpoint.js';
import type { McpTestResultDto, McpToolListDto } from '../dto/mcp-server.dto.js';
import { McpErrors } from '../mcp.errors.js';
import { McpServersRepository } from './mcp-servers.repository.js';
import { McpServersService } from './mcp-servers.service.js';
import { McpToolSwitches } from './mcp-tool-switches.js';

/**
 * The routes that talk to a server: the connection test, its tool list and the per-tool switches. The
 * knowledge server is asked as the admin, with no run and no knowledge base: enough to list its tools.
 */
@Injectable()
export class McpServerToolsService {
  constructor(
    private readonly servers: McpServersService,
    private readonly repository: McpServersRepository,
    private readonly discovery: McpDiscovery,
    private readonly knowledge: KnowledgeMcpEndpoint,
    private readonly switches: McpToolSwitches,
  ) {}

  private asAdmin<T>(actor: AuthenticatedUser, work: () => Promise<T>): Promise<T> {
    return this.knowledge.as({ userId: actor.id, runId: null, threadId: null, kbIds: [] }, work);
  }

  /** Connects now; `ok: false` carries the real reason (never a false success). */
  async test(actor: AuthenticatedUser, slug: string): Promise<McpTestResultDto> {
    const row = await this.servers.require(slug);
    const result = await this.asAdmin(actor, () => this.discovery.testNow(row));
    if (!result.ok) return { ok: false, error: result.error };
    return {
      ok: true,
      latency_ms: result.latencyMs,
      tools: result.tools.map((tool) => ({ name: tool.name, description: tool.description })),
    };
  }

  async tools(actor: AuthenticatedUser, slug: string, query: PageQueryDto): Promise<McpToolListDto> {
    const row = await this.servers.require(slug);
    const disabled = new Set(row.disabledTools);
    const tools = await this.asAdmin(actor, () => this.discovery.requireTools(row));
    // The server answers its whole list (cached per connection config): paged here, in name order.
    return pageByKey(
      tools,
      query,
      (tool) => [tool.name],
      (tool) => ({
        name: tool.name,
        description: tool.description,
        input_schema: tool.inputSchema,
        enabled: !disabled.has(tool.name),
        ...(tool.annotations === undefined ? {} : { annotations: tool.annotations }),
      }),
      1,
    );
  }

  /**
   * Disabling needs the tool to exist on the server now (404 otherwise); enabling a name that is on the
   * disabled list is always allowed (a tool the server dropped can be cleared from the list).
   */
  async setToolEnabled(
    actor: AuthenticatedUser,
    slug: string,
    name: string,
    enabled: boolean,
  ): Promise<void> {
    const row = await this.servers.require(slug);
    const listed = row.disabledTools.includes(name);
    if (!(enabled && listed)) {
      const tools = await this.asAdmin(actor, () => this.discovery.requireTools(row));
      if (!tools.some((tool) => tool.name === name)) throw McpErrors.toolNotFound(slug, name);
    }
    await this.repository.setToolDisabled(row.id, name, !enabled, actor.id);
    this.switches.forget(slug);
  }
}
