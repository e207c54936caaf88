import { Injectable } from '@nestjs/common';
import { BASE_TOOL_NAMES, SUBAGENT_TOOL_NAMES, ToolRegistry } from '../../tools/index.js';
import type { AgentResourceSource, ResourceOption } from './agent-resource-catalog.js';

/**
 * Selectable tools: the registry's builtin tools except the base tools, which every normal agent has
 * whatever its selection (naming them is accepted and kept), and the subagent tools, which
 * follow the `subagents` field. Knowledge, MCP and debug tools are not selected through `tools`.
 */
@Injectable()
export class BuiltinToolsSource implements AgentResourceSource {
  readonly field = 'tools' as const;
  readonly implicitIds = BASE_TOOL_NAMES;

  constructor(private readonly registry: ToolRegistry) {}

  usableOptions(): Promise<ResourceOption[]> {
    const options = this.registry
      .list()
      .map((tool) => tool.metadata)
      .filter(
        (metadata) =>
          metadata.category === 'builtin' && !metadata.base && !SUBAGENT_TOOL_NAMES.has(metadata.name),
      )
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((metadata) => ({
        value: metadata.name,
        label: metadata.displayName,
        description: metadata.description,
      }));
    return Promise.resolve(options);
  }
}
