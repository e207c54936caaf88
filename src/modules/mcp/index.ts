// The MCP module's front door: what other modules may use. Everything else is internal.
import { McpServerEntity } from './servers/mcp-server.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const MCP_ENTITIES = [McpServerEntity];

export { McpModule } from './mcp.module.js';
export { McpRuntimeModule } from './mcp-runtime.module.js';
export { McpCoreModule } from './mcp-core.module.js';
export { McpServerCatalog } from './servers/mcp-server-catalog.js';
