import { Injectable, type OnModuleInit } from '@nestjs/common';
import {
  ToolVisibility,
  type OfferedTool,
  type ToolVisibilityPolicy,
  type VisibilityContext,
} from '../../agent-runtime/index.js';
import { BASE_TOOL_NAMES } from '../../tools/index.js';
import { isRuntimeMountedTool } from '../dependencies/runtime-mounted-tools.js';

/**
 * Step 3 of assembly for skills: tools that only skills need (their `tool_dependencies`, and the tools
 * of their `mcp_dependencies` servers) stay hidden until one of those skills is preloaded or activated.
 * Base tools, runtime-mounted tools, tools the agent selected and tools of the servers it selected are
 * never hidden.
 */
@Injectable()
export class SkillToolVisibility implements ToolVisibilityPolicy, OnModuleInit {
  constructor(private readonly visibility: ToolVisibility) {}

  onModuleInit(): void {
    this.visibility.register(this);
  }

  visible(context: VisibilityContext, executable: readonly OfferedTool[]): Promise<OfferedTool[]> {
    const { snapshot, activatedSkills } = context;
    const skills = snapshot.effective_skills ?? [];
    if (skills.length === 0) return Promise.resolve([...executable]);
    const open = new Set([...snapshot.preload_skills, ...activatedSkills]);
    const gatedTools = new Set<string>();
    const gatedServers = new Set<string>();
    const openTools = new Set(snapshot.tools);
    const openServers = new Set(snapshot.mcps);
    for (const skill of skills) {
      const isOpen = open.has(skill.slug);
      for (const name of skill.tool_dependencies) (isOpen ? openTools : gatedTools).add(name);
      for (const server of skill.mcp_dependencies) (isOpen ? openServers : gatedServers).add(server);
    }
    const hidden = (tool: OfferedTool): boolean => {
      if (BASE_TOOL_NAMES.has(tool.name) || isRuntimeMountedTool(tool.name)) return false;
      if (tool.server !== undefined) return gatedServers.has(tool.server) && !openServers.has(tool.server);
      return gatedTools.has(tool.name) && !openTools.has(tool.name);
    };
    return Promise.resolve(executable.filter((tool) => !hidden(tool)));
  }
}
