import type * as ServerIndex from '@modelcontextprotocol/sdk/server/index.js';
import type * as ServerMcp from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as ServerStreamableHttp from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK's server the knowledge endpoint uses. */
export interface McpServerSdk {
  McpServer: typeof ServerMcp.McpServer;
  Server: typeof ServerIndex.Server;
  StreamableHTTPServerTransport: typeof ServerStreamableHttp.StreamableHTTPServerTransport;
  CallToolRequestSchema: typeof Types.CallToolRequestSchema;
  ListToolsRequestSchema: typeof Types.ListToolsRequestSchema;
  McpError: typeof Types.McpError;
}

let loaded: McpServerSdk | null = null;

/**
 * The SDK server, loaded at the first knowledge MCP request (about 0.1 s of start-up that most API
 * processes never need). `require`, not `import()`: the CommonJS build the types describe, not the
 * package's ES build (a second copy with its own classes).
 */
export function mcpServerSdk(): McpServerSdk {
  if (loaded !== null) return loaded;
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred on purpose, see above */
  const index = require('@modelcontextprotocol/sdk/server/index.js') as typeof ServerIndex;
  const mcp = require('@modelcontextprotocol/sdk/server/mcp.js') as typeof ServerMcp;
  const http = require('@modelcontextprotocol/sdk/server/streamableHttp.js') as typeof ServerStreamableHttp;
  const types = require('@modelcontextprotocol/sdk/types.js') as typeof Types;
  /* eslint-enable @typescript-eslint/no-require-imports */
  loaded = {
    McpServer: mcp.McpServer,
    Server: index.Server,
    StreamableHTTPServerTransport: http.StreamableHTTPServerTransport,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
    McpError: types.McpError,
  };
  return loaded;
}
