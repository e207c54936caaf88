/** The MCP tool annotations kept for a later approval policy (given as the server gave them). */
export type McpToolAnnotations = Record<string, unknown>;

/** One tool as a server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}
