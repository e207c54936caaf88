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
  /** Inserted enabled (the knowledge server); others wait for an admin. Later starts keep the status. */
  enabledByDefault?: boolean;
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

/** Served by this application at `/mcp/knowledge`; reached at `KNOWLEDGE_MCP_URL`. */
export const KNOWLEDGE_MCP_SLUG = 'knowledge';

/** The builtin knowledge server: its URL is the deployment's (`KNOWLEDGE_MCP_URL`), never an admin's. */
export function knowledgeMcpServer(url: string): BuiltinMcpServer {
  return {
    name: 'Knowledge',
    description:
      'The knowledge bases the running user may read: list them, query them, find and read their documents.',
    transport: 'streamable_http',
    url,
    icon: '📖',
    tags: ['builtin', 'knowledge'],
    timeoutS: 10,
    sseReadTimeoutS: 60,
    enabledByDefault: true,
  };
}

/** Every builtin definition of this deployment. */
export function builtinMcpServers(knowledgeUrl: string): Readonly<Record<string, BuiltinMcpServer>> {
  return { ...BUILTIN_MCP_SERVERS, [KNOWLEDGE_MCP_SLUG]: knowledgeMcpServer(knowledgeUrl) };
}

/** Builtins that no longer exist: their system-created rows are deleted at start. */
export const RETIRED_BUILTIN_SLUGS: readonly string[] = ['mcp-server-chart'];

/** Slugs an admin may never create. */
export function isReservedSlug(slug: string): boolean {
  return slug === KNOWLEDGE_MCP_SLUG || Object.hasOwn(BUILTIN_MCP_SERVERS, slug);
}
