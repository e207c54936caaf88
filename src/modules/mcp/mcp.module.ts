import { Module } from '@nestjs/common';
import { McpCoreModule } from './mcp-core.module.js';
import { McpServersController } from './mcp-servers.controller.js';

/** The admin HTTP API of MCP servers (`/api/system/mcp-servers`). */
@Module({
  imports: [McpCoreModule],
  controllers: [McpServersController],
})
export class McpModule {}
