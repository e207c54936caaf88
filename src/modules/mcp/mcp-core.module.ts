import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SafeHttpModule } from '../../common/http-safety/index.js';
import { AgentsModule } from '../agents/index.js';
import { KnowledgeDelegationModule } from '../knowledge/index.js';
import { BuiltinMcpSync } from './builtin/builtin-mcp-sync.js';
import { McpClientFactory } from './client/mcp-client-factory.js';
import { McpConnections } from './client/mcp-connections.js';
import { McpDiscovery } from './client/mcp-discovery.js';
import { KnowledgeMcpEndpoint } from './knowledge/knowledge-mcp-endpoint.js';
import { McpServerToolsService } from './servers/mcp-server-tools.service.js';
import { McpServersResourceSource } from './resources/mcp-servers.resource-source.js';
import { HeaderSecrets } from './servers/header-secrets.js';
import { McpServerEntity } from './servers/mcp-server.entity.js';
import { McpServersRepository } from './servers/mcp-servers.repository.js';
import { McpServersService } from './servers/mcp-servers.service.js';
import { McpServerCatalog } from './servers/mcp-server-catalog.js';
import { McpToolSwitches } from './servers/mcp-tool-switches.js';

/**
 * What the API and the worker share: the records (headers sealed), the builtin sync run at every start,
 * the `mcps` resource source of agent configs.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([McpServerEntity]),
    SafeHttpModule,
    AgentsModule,
    KnowledgeDelegationModule,
  ],
  providers: [
    KnowledgeMcpEndpoint,
    McpServersRepository,
    McpServersService,
    HeaderSecrets,
    BuiltinMcpSync,
    McpServersResourceSource,
    McpClientFactory,
    McpConnections,
    McpDiscovery,
    McpServerToolsService,
    McpServerCatalog,
    McpToolSwitches,
  ],
  exports: [
    KnowledgeMcpEndpoint,
    McpServerCatalog,
    McpServersRepository,
    McpServersService,
    McpServerToolsService,
    McpDiscovery,
    McpConnections,
    McpToolSwitches,
  ],
})
export class McpCoreModule {}
