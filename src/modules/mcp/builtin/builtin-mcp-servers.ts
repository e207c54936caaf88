import type { McpTransport } from '../servers/mcp-server.entity.js';

/** A remote MCP server defined in code; synced into `mcp_servers` at every start. */
export interface BuiltinMcpServer {
  name: string;
  description: string;
  transport: McpTransport;
  url: string;
  icon: string;
  tags: string[];
  timeoutS?: number;
  sseReadTimeoutS?: number;
}

/**
 * Builtin remote servers by slug. Adding one is adding an entry here: it is inserted disabled (an admin
 * enables it); its connection fields always come from this definition.
 */
export const BUILTIN_MCP_SERVERS: Readonly<Record<string, BuiltinMcpServer>> = {
  'deepwiki-official': {
    name: 'DeepWiki',
    description: 'Documentation, architecture and code of public GitHub repositories.',
    transport: 'streamable_http',
    url: 'https://mcp.deepwiki.com/mcp',
    icon: '📚',
    tags: ['builtin', 'code', 'docs'],
  },
};

/** Served by this application (arrives with the knowledge module); reserved now. */
export const KNOWLEDGE_MCP_SLUG = 'knowledge';

/** Builtins that no longer exist: their system-created rows are deleted at start. */
export const RETIRED_BUILTIN_SLUGS: readonly string[] = ['mcp-server-chart'];

/** Slugs an admin may never create. */
export function isReservedSlug(slug: string): boolean {
  return slug === KNOWLEDGE_MCP_SLUG || Object.hasOwn(BUILTIN_MCP_SERVERS, slug);
}
