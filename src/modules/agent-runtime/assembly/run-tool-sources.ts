import { Injectable } from '@nestjs/common';
import type { RegisteredTool } from '../../tools/index.js';
import type { RunConfigSnapshot } from './run-config-snapshot.js';
import type { RunActor } from './run-authorization.js';

/** A tool offered to a run, as the model will see it. */
export interface OfferedTool {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
  /** How a source's tool (not in the registry) executes; it still passes the ToolExecutor. */
  execution?: RegisteredTool;
  /** Names the tool's origin in a name clash when finer than the source's label (one MCP server). */
  origin?: string;
  /** The MCP server a tool comes from (skills gate their `mcp_dependencies` by server). */
  server?: string;
}

/** A component left out of a run because it cannot be used now (not configured, server down). */
export interface UnavailableComponent {
  component: string;
  reason: string;
  available: false;
  /** The MCP server, for `component: "mcp"`. */
  server?: string;
  /** A stable code for the reason, when there is one. */
  code?: string;
}

/** What a source gives a run: its tools, and the components it could not provide this time. */
export interface ToolSourceOutput {
  tools: OfferedTool[];
  unavailable?: UnavailableComponent[];
}

export interface ToolSourceContext {
  runId: string;
  threadId: string;
  actor: RunActor;
  snapshot: RunConfigSnapshot;
}

/**
 * One origin of a run's executable tools (step 2 of assembly): local tools that visible skills
 * depend on (Skills module), tools of the selected MCP servers (MCP module). The builtin and base tools
 * are the runtime's own sources. Sources load concurrently; `label` names the source in a name clash.
 */
export interface RunToolSource {
  readonly label: string;
  tools(context: ToolSourceContext): Promise<OfferedTool[] | ToolSourceOutput>;
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
