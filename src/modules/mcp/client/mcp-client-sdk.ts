import type * as ClientIndex from '@modelcontextprotocol/sdk/client/index.js';
import type * as ClientSse from '@modelcontextprotocol/sdk/client/sse.js';
import type * as ClientStreamableHttp from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type * as Types from '@modelcontextprotocol/sdk/types.js';

/** The parts of the MCP SDK's client this module uses. */
export interface McpClientSdk {
  Client: typeof ClientIndex.Client;
  SSEClientTransport: typeof ClientSse.SSEClientTransport;
  SseError: typeof ClientSse.SseError;
  StreamableHTTPClientTransport: typeof ClientStreamableHttp.StreamableHTTPClientTransport;
  StreamableHTTPError: typeof ClientStreamableHttp.StreamableHTTPError;
  McpError: typeof Types.McpError;
  ErrorCode: typeof Types.ErrorCode;
  ToolListChangedNotificationSchema: typeof Types.ToolListChangedNotificationSchema;
}

let loaded: McpClientSdk | null = null;

/**
 * The SDK client, loaded at the first connection: it costs about 0.1 s to load and an API process
 * may never talk to an MCP server. `require` (not `import()`) loads the same CommonJS build the types
 * describe; `import()` would load the package's ES build, a second copy with its own classes.
 */
export function mcpClientSdk(): McpClientSdk {
  if (loaded !== null) return loaded;
  /* eslint-disable @typescript-eslint/no-require-imports -- deferred on purpose, see above */
  const client = require('@modelcontextprotocol/sdk/client/index.js') as typeof ClientIndex;
  const sse = require('@modelcontextprotocol/sdk/client/sse.js') as typeof ClientSse;
  const http = require('@modelcontextprotocol/sdk/client/streamableHttp.js') as typeof ClientStreamableHttp;
  const types = require('@modelcontextprotocol/sdk/types.js') as typeof Types;
  /* eslint-enable @typescript-eslint/no-require-imports */
  loaded = {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    SseError: sse.SseError,
    StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
    StreamableHTTPError: http.StreamableHTTPError,
    McpError: types.McpError,
    ErrorCode: types.ErrorCode,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
  };
  return loaded;
}

/** The SDK if a connection loaded it, else null: then no error can be one of its own. */
export function loadedMcpClientSdk(): McpClientSdk | null {
  return loaded;
}
