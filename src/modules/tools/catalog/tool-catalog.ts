import { Injectable } from '@nestjs/common';
import { argsJsonSchema } from '../registry/args-json-schema.js';
import { ToolRegistry, type RegisteredTool } from '../registry/tool-registry.js';
import { ToolsErrors } from '../tools.errors.js';
import { ToolDto } from '../dto/tool.dto.js';

export interface ToolCatalogFilter {
  /** Any string; a category no tool has gives an empty list. */
  category?: string;
  tag?: string;
}

/** The tool catalog, derived from the registry on every call (a later registration shows at once). */
@Injectable()
export class ToolCatalog {
  constructor(private readonly registry: ToolRegistry) {}

  list(filter: ToolCatalogFilter = {}): Promise<ToolDto[]> {
    const tools = this.registry
      .list()
      .filter((tool) => filter.category === undefined || tool.metadata.category === filter.category)
      .filter((tool) => filter.tag === undefined || tool.metadata.tags.includes(filter.tag))
      .sort(
        (a, b) =>
          a.metadata.category.localeCompare(b.metadata.category) ||
          a.metadata.name.localeCompare(b.metadata.name),
      );
    return Promise.all(tools.map((tool) => toDto(tool)));
  }

  get(name: string): Promise<ToolDto> {
    const tool = this.registry.get(name);
    if (tool === undefined) throw ToolsErrors.notFound(name);
    return toDto(tool);
  }
}

async function toDto(tool: RegisteredTool): Promise<ToolDto> {
  const { metadata } = tool;
  const availability = await tool.availability();
  return {
    id: metadata.name,
    display_name: metadata.displayName,
    description: metadata.description,
    category: metadata.category,
    tags: [...metadata.tags],
    icon: metadata.icon ?? null,
    config_guide: metadata.configGuide ?? null,
    args_schema: argsJsonSchema(metadata.schema),
    base: metadata.base,
    side_effects: metadata.sideEffects,
    available: availability.available,
    unavailable_reason: availability.available ? null : availability.reason,
  };
}
