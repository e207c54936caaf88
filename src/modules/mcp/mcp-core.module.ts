import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SafeHttpModule } from '../../common/http-safety/index.js';
import { AgentsModule } from '../agents/index.js';
import { BuiltinMcpSync } from './builtin/builtin-mcp-sync.js';
import { McpServersResourceSource } from './resources/mcp-servers.resource-source.js';
import { HeaderSecrets } from './servers/header-secrets.js';
import { McpServerEntity } from './servers/mcp-server.entity.js';
import { McpServersRepository } from './servers/mcp-servers.repository.js';
import { McpServersService } from './servers/mcp-servers.service.js';

/**
 * What the API and the worker share: the records (headers sealed), the builtin sync run at every start,
 * the `mcps` resource source of agent configs.
 */
@Module({
  imports: [TypeOrmModule.forFeature([McpServerEntity]), SafeHttpModule, AgentsModule],
  providers: [
    McpServersRepository,
    McpServersService,
    HeaderSecrets,
    BuiltinMcpSync,
    McpServersResourceSource,
  ],
  exports: [McpServersRepository, McpServersService, HeaderSecrets, SafeHttpModule],
})
export class McpCoreModule {}
