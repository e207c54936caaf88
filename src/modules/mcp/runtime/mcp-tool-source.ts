import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RunToolSources, type ToolSourceContext, type ToolSourceOutput } from '../../agent-runtime/index.js';
import { McpToolLoader } from './mcp-tool-loader.js';

/** The MCP servers an agent selects (`mcps`, already intersected with enabled servers) as a run tool source. */
@Injectable()
export class McpToolSource implements OnModuleInit {
  constructor(
    private readonly sources: RunToolSources,
    private readonly loader: McpToolLoader,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      label: 'MCP servers',
      tools: (context) => this.tools(context),
    });
  }

  async tools(context: ToolSourceContext): Promise<ToolSourceOutput> {
    return this.loader.load(context.snapshot.mcps, context);
  }
}
