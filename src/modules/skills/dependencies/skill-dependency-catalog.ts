import { Injectable } from '@nestjs/common';

/** What the MCP module tells skills about its servers. */
export interface McpServerDirectory {
  /** Which of `slugs` are configured MCP servers (builtin `knowledge` included). */
  existingServers(slugs: readonly string[]): Promise<Set<string>>;
}

/**
 * The port through which skills check `mcp_dependencies`. The MCP module connects its directory in its
 * `onModuleInit` (`SkillDependencyCatalog.connectMcpServers`); until one is connected no MCP server
 * exists, so every MCP dependency is refused as unknown.
 */
@Injectable()
export class SkillDependencyCatalog {
  private mcp: McpServerDirectory | null = null;

  connectMcpServers(directory: McpServerDirectory): void {
    if (this.mcp !== null) throw new Error('an MCP server directory is already connected');
    this.mcp = directory;
  }

  existingMcpServers(slugs: readonly string[]): Promise<Set<string>> {
    return this.mcp === null ? Promise.resolve(new Set()) : this.mcp.existingServers(slugs);
  }
}
