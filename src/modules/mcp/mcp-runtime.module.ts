import { Module } from '@nestjs/common';
import { McpCoreModule } from './mcp-core.module.js';

/** The worker side: MCP tools as a run tool source. */
@Module({
  imports: [McpCoreModule],
})
export class McpRuntimeModule {}
