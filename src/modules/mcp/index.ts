// The MCP module's front door: what other modules may use. Everything else is internal.
import { McpServerEntity } from './servers/mcp-server.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const MCP_ENTITIES = [McpServerEntity];

export { McpModule } from './mcp.module.js';
export { McpErrors, McpErrorCode } from './mcp.errors.js';
export { McpRuntimeModule } from './mcp-runtime.module.js';
export { McpToolLoader } from './runtime/mcp-tool-loader.js';
export type { LoadedServerTools } from './runtime/mcp-tool-loader.js';
