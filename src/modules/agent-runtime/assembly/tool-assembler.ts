import { Injectable, Logger } from '@nestjs/common';
import {
  argsJsonSchema,
  SUBAGENT_FORBIDDEN_TOOL_NAMES,
  ToolRegistry,
  ToolsErrors,
} from '../../tools/index.js';
import type { OfferedTool, ToolSourceContext } from './run-tool-sources.js';
import { RunToolSources } from './run-tool-sources.js';

export interface UnavailableComponent {
  component: string;
  reason: string;
  available: false;
}

export interface AssembledTools {
  executable: OfferedTool[];
  unavailable: UnavailableComponent[];
}

/**
 * Step 2 of assembly: the run's executable tools. The selected builtin tools, the base tools (always),
 * then every registered source (skill dependencies, MCP servers), loaded concurrently. A tool whose
 * configuration is missing is left out and recorded; one name offered by two sources fails the run.
 */
@Injectable()
export class ToolAssembler {
  private readonly logger = new Logger(ToolAssembler.name);

  constructor(
    private readonly registry: ToolRegistry,
    private readonly sources: RunToolSources,
  ) {}

  async assemble(context: ToolSourceContext): Promise<AssembledTools> {
    const unavailable: UnavailableComponent[] = [];
    const offered: [string, OfferedTool][] = [];
    const selected = new Set(context.snapshot.tools);
    for (const tool of this.registry.list()) {
      const { metadata } = tool;
      const source = metadata.base ? 'base tools' : 'builtin tools';
      if (!metadata.base && !(metadata.category === 'builtin' && selected.has(metadata.name))) continue;
      // Never offered to a subagent (the executor refuses them too).
      if (context.snapshot.agent.is_subagent && SUBAGENT_FORBIDDEN_TOOL_NAMES.has(metadata.name)) continue;
      const availability = await tool.availability();
      if (!availability.available) {
        unavailable.push({
          component: metadata.name,
          reason: availability.reason ?? 'unavailable',
          available: false,
        });
        continue;
      }
      offered.push([
        source,
        {
          name: metadata.name,
          description: metadata.description,
          parameters: argsJsonSchema(metadata.schema),
        },
      ]);
    }
    const external = await Promise.all(
      this.sources
        .list()
        .map(async (source) => ({ label: source.label, tools: await source.tools(context) })),
    );
    for (const { label, tools } of external) for (const tool of tools) offered.push([label, tool]);

    const byName = new Map<string, string>();
    const executable: OfferedTool[] = [];
    for (const [source, tool] of offered) {
      const existing = byName.get(tool.name);
      if (existing !== undefined) throw ToolsErrors.nameConflict(tool.name, [existing, source]);
      byName.set(tool.name, source);
      executable.push(tool);
    }
    if (unavailable.length > 0) this.logger.log({ run_id: context.runId, unavailable }, 'tools not bound');
    return { executable, unavailable };
  }
}
