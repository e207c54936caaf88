/** The MCP tool annotations, as the server gave them (the approval policy reads them as hints). */
export type McpToolAnnotations = Record<string, unknown>;

/** One tool as a server lists it. */
export interface McpToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: McpToolAnnotations;
}
