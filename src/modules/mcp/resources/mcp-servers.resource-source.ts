import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AgentResourceCatalog } from '../../agents/index.js';
import { McpServersRepository } from '../servers/mcp-servers.repository.js';

/**
 * The ids an agent's `mcps` may name: enabled servers, by slug (every user may use an enabled server;
 * a disabled one is neither selectable nor loaded).
 */
@Injectable()
export class McpServersResourceSource implements OnModuleInit {
  readonly field = 'mcps' as const;

  constructor(
    private readonly catalog: AgentResourceCatalog,
    private readonly repository: McpServersRepository,
  ) {}

  onModuleInit(): void {
    this.catalog.register(this);
  }

  async usableOptions() {
    const rows = await this.repository.listEnabled();
    return rows.map((row) => ({ value: row.slug, label: row.name, description: row.description }));
  }
}
