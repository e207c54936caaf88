import { Injectable, type OnModuleInit } from '@nestjs/common';
import { RunToolSources, type ToolSourceContext, type ToolSourceOutput } from '../../agent-runtime/index.js';
import { McpToolLoader } from './mcp-tool-loader.js';

/**
 * The tools of the MCP servers that the run's skills depend on (`mcp_dependencies`) and the agent did
 * not select: executable for the run, hidden by the skills visibility policy until a skill needing
 * them is activated or preloaded.
 */
@Injectable()
export class McpSkillDependencySource implements OnModuleInit {
  constructor(
    private readonly sources: RunToolSources,
    private readonly loader: McpToolLoader,
  ) {}

  onModuleInit(): void {
    this.sources.register({
      label: 'MCP servers of skills',
      tools: (context) => this.tools(context),
    });
  }

  async tools(context: ToolSourceContext): Promise<ToolSourceOutput> {
    const selected = new Set(context.snapshot.mcps);
    const needed = (context.snapshot.effective_skills ?? [])
      .flatMap((skill) => skill.mcp_dependencies)
      .filter((slug) => !selected.has(slug));
    if (needed.length === 0) return { tools: [] };
    return this.loader.load([...new Set(needed)], context);
  }
}
