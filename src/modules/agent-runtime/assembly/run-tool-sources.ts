import { Injectable } from '@nestjs/common';
import type { RunConfigSnapshot } from './run-config-snapshot.js';
import type { RunActor } from './run-authorization.js';

/** A tool offered to a run, as the model will see it. */
export interface OfferedTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export interface ToolSourceContext {
  runId: string;
  actor: RunActor;
  snapshot: RunConfigSnapshot;
}

/**
 * One origin of a run's executable tools (seed "工具组装流程" step 2): local tools that visible skills
 * depend on (Skills module), tools of the selected MCP servers (MCP module). The builtin and base tools
 * are the runtime's own sources. Sources load concurrently; `label` names the source in a name clash.
 */
export interface RunToolSource {
  readonly label: string;
  tools(context: ToolSourceContext): Promise<OfferedTool[]>;
}

/** Where other modules plug their tool sources into run assembly. */
@Injectable()
export class RunToolSources {
  private readonly sources: RunToolSource[] = [];

  register(source: RunToolSource): void {
    this.sources.push(source);
  }

  list(): readonly RunToolSource[] {
    return [...this.sources];
  }
}
