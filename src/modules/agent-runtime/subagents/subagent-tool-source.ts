import { Injectable, OnModuleInit } from '@nestjs/common';
import { argsJsonSchema, SUBAGENT_TOOL_NAMES, ToolRegistry } from '../../tools/index.js';
import {
  RunToolSources,
  type OfferedTool,
  type RunToolSource,
  type ToolSourceContext,
} from '../assembly/run-tool-sources.js';

/**
 * Mounts the subagent tools in a run whose agent may call at least one subagent (its `subagents`
 * selection intersected with what the user may see, in the snapshot). Subagent runs never get them.
 */
@Injectable()
export class SubagentToolSource implements RunToolSource, OnModuleInit {
  readonly label = 'subagent tools';

  constructor(
    private readonly sources: RunToolSources,
    private readonly registry: ToolRegistry,
  ) {}

  onModuleInit(): void {
    this.sources.register(this);
  }

  tools({ snapshot }: ToolSourceContext): Promise<OfferedTool[]> {
    if (snapshot.agent.is_subagent || snapshot.subagents.length === 0) return Promise.resolve([]);
    const tools = [...SUBAGENT_TOOL_NAMES].flatMap((name) => {
      const metadata = this.registry.get(name)?.metadata;
      return metadata === undefined
        ? []
        : [{ name, description: metadata.description, parameters: argsJsonSchema(metadata.schema) }];
    });
    return Promise.resolve(tools);
  }
}
