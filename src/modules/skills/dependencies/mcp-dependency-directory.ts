import { Injectable, type OnModuleInit } from '@nestjs/common';
import { McpServerCatalog } from '../../mcp/index.js';
import { SkillDependencyCatalog } from './skill-dependency-catalog.js';

/** Connects the MCP module's server catalog to the port that checks skills' `mcp_dependencies`. */
@Injectable()
export class McpDependencyDirectory implements OnModuleInit {
  constructor(
    private readonly catalog: SkillDependencyCatalog,
    private readonly servers: McpServerCatalog,
  ) {}

  onModuleInit(): void {
    this.catalog.connectMcpServers({ existingServers: (slugs) => this.servers.existingServers(slugs) });
  }
}
