import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { In, IsNull, Not, type EntityManager } from 'typeorm';
import { McpServerEntity } from '../servers/mcp-server.entity.js';
import { McpServersRepository } from '../servers/mcp-servers.repository.js';
import { AppConfig } from '../../../config/app-config.js';
import { builtinMcpServers, RETIRED_BUILTIN_SLUGS, type BuiltinMcpServer } from './builtin-mcp-servers.js';

const DEFAULT_TIMEOUT_S = 30;
const DEFAULT_SSE_READ_TIMEOUT_S = 300;

/**
 * At every start (api and worker, serialized by an advisory lock): builtin definitions are written into
 * `mcp_servers` (a new one disabled unless `enabledByDefault`, as `knowledge` is; an existing one gets its connection fields from code and keeps its
 * enabled state and disabled tools), retired builtins the system created are deleted, and legacy
 * `stdio` rows are disabled.
 */
@Injectable()
export class BuiltinMcpSync implements OnApplicationBootstrap {
  private readonly logger = new Logger(BuiltinMcpSync.name);

  constructor(
    private readonly repository: McpServersRepository,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sync(builtinMcpServers(this.config.knowledgeMcp.url), RETIRED_BUILTIN_SLUGS);
  }

  sync(definitions: Readonly<Record<string, BuiltinMcpServer>>, retired: readonly string[]): Promise<void> {
    return this.repository.inBuiltinSync(async (manager) => {
      const rows = manager.getRepository(McpServerEntity);
      for (const [slug, definition] of Object.entries(definitions)) {
        await this.upsert(manager, slug, definition);
      }
      if (retired.length > 0) {
        await rows.delete({ slug: In([...retired]), source: 'builtin', createdBy: IsNull() });
      }
      const stdio = await rows.update({ transport: 'stdio', enabled: true }, { enabled: false });
      if ((stdio.affected ?? 0) > 0)
        this.logger.warn({ count: stdio.affected }, 'legacy stdio MCP servers disabled');
      const custom = await rows.findBy({ slug: In(Object.keys(definitions)), source: Not('builtin') });
      for (const row of custom)
        this.logger.warn({ slug: row.slug }, 'a custom MCP server holds a builtin slug');
    });
  }

  private async upsert(manager: EntityManager, slug: string, definition: BuiltinMcpServer): Promise<void> {
    const connection = {
      name: definition.name,
      description: definition.description,
      transport: definition.transport,
      url: definition.url,
      headers_sealed: null,
      timeout_s: definition.timeoutS ?? DEFAULT_TIMEOUT_S,
      sse_read_timeout_s: definition.sseReadTimeoutS ?? DEFAULT_SSE_READ_TIMEOUT_S,
      tags: JSON.stringify(definition.tags),
      icon: definition.icon,
    };
    const columns = Object.keys(connection);
    const values = Object.values(connection);
    // On conflict only a builtin row takes the code's fields (enabled, disabled_tools kept).
    await manager.query(
      `INSERT INTO mcp_servers (id, slug, source, enabled, ${columns.join(', ')})
       VALUES ($1, $2, 'builtin', $3, ${columns.map((_, i) => `$${i + 4}`).join(', ')})
       ON CONFLICT (slug) DO UPDATE SET ${columns.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}, updated_at = now()
       WHERE mcp_servers.source = 'builtin'`,
      [randomUUID(), slug, definition.enabledByDefault ?? false, ...values],
    );
  }
}
