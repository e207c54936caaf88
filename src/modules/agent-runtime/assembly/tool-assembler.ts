import { Injectable, Logger } from '@nestjs/common';
import {
  argsJsonSchema,
  SUBAGENT_FORBIDDEN_TOOL_NAMES,
  ToolRegistry,
  ToolsErrors,
} from '../../tools/index.js';
import type { RegisteredTool } from '../../tools/index.js';
import type { OfferedTool, ToolSourceContext, UnavailableComponent } from './run-tool-sources.js';
import { RunToolSources } from './run-tool-sources.js';

export type { UnavailableComponent } from './run-tool-sources.js';

export interface AssembledTools {
  executable: OfferedTool[];
  /** The selected tools and source components left out of this run (a run event each). */
  unavailable: UnavailableComponent[];
  /** How each executable tool runs, by name, from the source that offered it (the executor's only lookup). */
  offeredTools: Map<string, RegisteredTool>;
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
    // Availability checks (some read settings) and the external sources all run at the same time.
    const [builtin, external] = await Promise.all([
      this.builtinTools(context),
      Promise.all(
        this.sources.list().map(async (source) => {
          const output = await source.tools(context);
          return { label: source.label, ...(Array.isArray(output) ? { tools: output } : output) };
        }),
      ),
    ]);
    const { offered, unavailable } = builtin;
    const sourceUnavailable: UnavailableComponent[] = [];
    for (const { label, tools, unavailable: missing } of external) {
      for (const tool of tools) offered.push([tool.origin ?? label, tool]);
      sourceUnavailable.push(...(missing ?? []));
    }

    const byName = new Map<string, string>();
    const executable: OfferedTool[] = [];
    const offeredTools = new Map<string, RegisteredTool>();
    for (const [source, tool] of offered) {
      const existing = byName.get(tool.name);
      if (existing !== undefined) throw ToolsErrors.nameConflict(tool.name, [existing, source]);
      byName.set(tool.name, source);
      const { execution, origin: _origin, ...shown } = tool;
      // A source without an execution of its own offers a registry tool (builtin, skill dependency).
      const runs = execution ?? this.registry.get(tool.name);
      if (runs === undefined) throw ToolsErrors.notFound(tool.name);
      executable.push(shown);
      offeredTools.set(tool.name, runs);
    }
    if (unavailable.length > 0) this.logger.log({ run_id: context.runId, unavailable }, 'tools not bound');
    for (const missing of sourceUnavailable) {
      this.logger.warn(
        { run_id: context.runId, ...missing },
        'tool source component unavailable for this run',
      );
    }
    return { executable, unavailable: [...unavailable, ...sourceUnavailable], offeredTools };
  }

  /** The selected builtin tools and the base tools, in registry order, with those unavailable now. */
  private async builtinTools(
    context: ToolSourceContext,
  ): Promise<{ offered: [string, OfferedTool][]; unavailable: UnavailableComponent[] }> {
    const selected = new Set(context.snapshot.tools);
    const candidates = this.registry.list().filter(({ metadata }) => {
      if (!metadata.base && !(metadata.category === 'builtin' && selected.has(metadata.name))) return false;
      // Never offered to a subagent (the executor refuses them too).
      return !(context.snapshot.agent.is_subagent && SUBAGENT_FORBIDDEN_TOOL_NAMES.has(metadata.name));
    });
    const availabilities = await Promise.all(candidates.map(async (tool) => tool.availability()));
    const offered: [string, OfferedTool][] = [];
    const unavailable: UnavailableComponent[] = [];
    candidates.forEach(({ metadata }, i) => {
      const availability = availabilities[i];
      if (!availability.available) {
        unavailable.push({
          component: metadata.name,
          reason: availability.reason ?? 'unavailable',
          available: false,
        });
        return;
      }
      offered.push([
        metadata.base ? 'base tools' : 'builtin tools',
        {
          name: metadata.name,
          description: metadata.description,
          parameters: argsJsonSchema(metadata.schema),
        },
      ]);
    });
    return { offered, unavailable };
  }
}
