import { Injectable } from '@nestjs/common';
import { ToolRegistry } from '../../tools/registry/tool-registry.js';
import type { AgentResourceSource, ResourceOption } from './agent-resource-catalog.js';

/**
 * Selectable tools: the registry's builtin tools except the base tools, which every normal agent has
 * whatever its selection. Knowledge, MCP and debug tools are not selected through `tools`.
 */
@Injectable()
export class BuiltinToolsSource implements AgentResourceSource {
  readonly field = 'tools' as const;

  constructor(private readonly registry: ToolRegistry) {}

  usableOptions(): Promise<ResourceOption[]> {
    const options = this.registry
      .list()
      .map((tool) => tool.metadata)
      .filter((metadata) => metadata.category === 'builtin' && !metadata.base)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((metadata) => ({
        value: metadata.name,
        label: metadata.displayName,
        description: metadata.description,
      }));
    return Promise.resolve(options);
  }
}
