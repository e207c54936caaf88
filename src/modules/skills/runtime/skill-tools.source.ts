import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  RunToolSources,
  type OfferedTool,
  type ToolSourceContext,
  type ToolSourceOutput,
  type UnavailableComponent,
} from '../../agent-runtime/index.js';
import { argsJsonSchema, SUBAGENT_FORBIDDEN_TOOL_NAMES, ToolRegistry } from '../../tools/index.js';
import { isRuntimeMountedTool } from '../dependencies/runtime-mounted-tools.js';

/**
 * The local tools the run's skills depend on (`tool_dependencies`) that the agent did not select:
 * executable for the run, hidden by `SkillToolVisibility` until a skill needing them is activated or
 * preloaded. Base tools and selected tools are offered by the runtime already.
 */
@Injectable()
export class SkillToolsSource implements OnModuleInit {
  constructor(
    private readonly sources: RunToolSources,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    this.sources.register({ label: 'skill dependencies', tools: (context) => this.tools(context) });
  }

  async tools({ snapshot }: ToolSourceContext): Promise<ToolSourceOutput> {
    const selected = new Set(snapshot.tools);
    const names = new Set((snapshot.effective_skills ?? []).flatMap((skill) => skill.tool_dependencies));
    const tools: OfferedTool[] = [];
    const unavailable: UnavailableComponent[] = [];
    for (const name of names) {
      const tool = this.registry.get(name);
      if (tool === undefined || tool.metadata.base || selected.has(name)) continue;
      // Refused on install and edit; a hand-written personal SKILL.md or an older row may still name one.
      if (isRuntimeMountedTool(name)) continue;
      if (snapshot.agent.is_subagent && SUBAGENT_FORBIDDEN_TOOL_NAMES.has(name)) continue;
      const availability = await tool.availability();
      if (!availability.available) {
        unavailable.push({ component: name, reason: availability.reason ?? 'unavailable', available: false });
        continue;
      }
      const { metadata } = tool;
      tools.push({
        name: metadata.name,
        description: metadata.description,
        parameters: argsJsonSchema(metadata.schema),
      });
    }
    return { tools, unavailable };
  }
}
