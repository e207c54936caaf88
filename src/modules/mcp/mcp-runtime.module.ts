import { Module } from '@nestjs/common';
import { RunAssemblyPortsModule } from '../agent-runtime/index.js';
import { ToolsModule } from '../tools/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { McpCoreModule } from './mcp-core.module.js';
import { McpToolLoader } from './runtime/mcp-tool-loader.js';
import { McpToolSchemas } from './runtime/mcp-tool-schemas.js';
import { McpSkillDependencySource } from './runtime/mcp-skill-dependency.source.js';
import { McpToolSource } from './runtime/mcp-tool-source.js';

/**
 * The worker side: the tools of the servers an agent selects, as a run tool source; `McpToolLoader` is
 * exported for the Skills module (`mcp_dependencies` loaded on activation).
 */
@Module({
  imports: [McpCoreModule, RunAssemblyPortsModule, WorkspaceModule, ToolsModule],
  providers: [McpToolLoader, McpToolSchemas, McpToolSource, McpSkillDependencySource],
  exports: [McpToolLoader],
})
export class McpRuntimeModule {}
