import { Injectable, OnModuleInit } from '@nestjs/common';
import { AgentResourceCatalog } from './agent-resource-catalog.js';
import { BuiltinToolsSource } from './builtin-tools.source.js';
import { SubagentsSource } from './subagents.source.js';

/** Registers the sources this module owns; skills, knowledge and MCP modules register theirs. */
@Injectable()
export class AgentResourceSources implements OnModuleInit {
  constructor(
    private readonly catalog: AgentResourceCatalog,
    private readonly tools: BuiltinToolsSource,
    private readonly subagents: SubagentsSource,
  ) {}

  onModuleInit(): void {
    this.catalog.register(this.tools);
    this.catalog.register(this.subagents);
  }
}
