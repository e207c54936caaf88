/**
 * What a tool can change when it runs, declared in its metadata: nothing beyond the run's own record
 * (`none`), the user's workspace files (`workspace`), systems outside this service (`external`), or
 * anything a command can do (`execute`). The `auto` approval policy reads it.
 */
export const SIDE_EFFECT_KINDS = ['none', 'workspace', 'external', 'execute'] as const;
export type SideEffectKind = (typeof SIDE_EFFECT_KINDS)[number];

/** An MCP tool's annotations as its server gave them: hints from that server, never trusted facts. */
export type McpToolAnnotations = Record<string, unknown>;

/** Where an MCP tool comes from, for approval: matched as `mcp:<server>:<tool>`. */
export interface McpToolOrigin {
  server: string;
  annotations?: McpToolAnnotations;
}

/** The name a policy pattern is matched against. */
export function approvalName(name: string, mcp: McpToolOrigin | undefined): string {
  return mcp === undefined ? name : `mcp:${mcp.server}:${name}`;
}
