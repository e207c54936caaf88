/**
 * The knowledge tools come from the builtin `knowledge` MCP server: a skill asks for them with
 * `mcp_dependencies: ["knowledge"]`, never as local `tool_dependencies` (they are not local tools).
 */
export const KNOWLEDGE_TOOL_NAMES: ReadonlySet<string> = new Set([
  'list_kbs',
  'query_kb',
  'find_kb_document',
  'open_kb_document',
  'search_file',
]);
