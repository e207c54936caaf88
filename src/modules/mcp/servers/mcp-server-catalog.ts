import { Injectable } from '@nestjs/common';
import { McpServersRepository } from './mcp-servers.repository.js';

/** What other modules may ask about the configured servers (skills check `mcp_dependencies` here). */
@Injectable()
export class McpServerCatalog {
  constructor(private readonly servers: McpServersRepository) {}

  /** Which of `slugs` are configured servers, enabled or not. */
  async existingServers(slugs: readonly string[]): Promise<Set<string>> {
    const rows = await this.servers.findBySlugs(slugs);
    return new Set(rows.map((row) => row.slug));
  }
}
