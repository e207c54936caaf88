import type { z } from 'zod';
import type { McpToolOrigin, SideEffectKind } from '../approval/tool-side-effects.js';
import type { JsonSchemaArgs } from './json-schema-args.js';

export const TOOL_CATEGORIES = ['builtin', 'knowledge', 'mcp', 'debug'] as const;
export type ToolCategory = (typeof TOOL_CATEGORIES)[number];

/**
 * A concrete target a call touches, named by one of its arguments. The executor hands it to the
 * authorizer registered for its kind before the handler runs; a kind nobody authorizes is refused.
 */
export type ToolResourceSpec =
  | { kind: 'workspace_path'; arg: string; access: 'read' | 'write' }
  | { kind: 'workspace_paths'; arg: string; access: 'read' | 'write' }
  | { kind: 'kb_id'; arg: string }
  | { kind: 'file_id'; arg: string };

export type ToolResourceKind = ToolResourceSpec['kind'];

export interface ToolAvailability {
  available: boolean;
  /** Why the tool cannot be bound now (e.g. `no web search provider is configured`). */
  reason: string | null;
}

export interface AgentToolOptions<S extends z.ZodType = z.ZodType> {
  /** Stable protocol id seen by models and clients (snake_case). */
  name: string;
  category: ToolCategory;
  tags: string[];
  /** For people; the id is for code and models. */
  displayName: string;
  /** What the model reads to decide when to call it. */
  description: string;
  icon?: string;
  configGuide?: string;
  /** zod schema of the arguments (strict objects recommended). */
  schema: S;
  /** Targets checked against the caller at the execution boundary. */
  resources?: ToolResourceSpec[];
  /** Refused in subagent runs (present_artifacts, ask_user_question, install_skill, subagent tools). */
  forbiddenForSubagents?: boolean;
  /** Per-call timeout; the executor's default applies otherwise. */
  timeoutMs?: number;
  /** What the tool can change (default `none`): what the `auto` approval policy reads. */
  sideEffects?: SideEffectKind;
  /** For a tool of an MCP server: the server and the annotations it gave the tool. */
  mcp?: McpToolOrigin;
  /**
   * The handler pages its own output within `tools.resultInlineChars` (read_file): the large-result
   * stage passes it through, so reading a saved large result back never saves it again. Only this
   * service's own tools may declare it; a tool of an MCP server never does.
   */
  boundsOwnOutput?: boolean;
}

/** What the registry keeps about a tool; handed out as copies. */
export interface ToolMetadata extends Omit<AgentToolOptions, 'tags' | 'resources' | 'schema'> {
  /** zod for the tools of this service; JSON Schema behind its validator for the tools of MCP servers. */
  schema: z.ZodType | JsonSchemaArgs;
  tags: readonly string[];
  resources: readonly ToolResourceSpec[];
  forbiddenForSubagents: boolean;
  sideEffects: SideEffectKind;
  boundsOwnOutput: boolean;
  /** One of the base tools present in every normal agent graph. */
  base: boolean;
}
