import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ToolCatalog } from './catalog/tool-catalog.js';
import { ToolsController } from './catalog/tools.controller.js';
import { ToolCallAuditWriter } from './execution/audit/tool-call-audit-writer.js';
import { ToolCallAuditRepository } from './execution/audit/tool-call-audit.repository.js';
import { ToolCallEntity } from './execution/audit/tool-call.entity.js';
import { ToolEvents } from './execution/tool-event-sink.js';
import { LargeResultOffloader } from './execution/large-result-offloader.js';
import { ToolExecutor } from './execution/tool-executor.js';
import { ToolMetrics } from './execution/tool-metrics.js';
import { ToolResourceAuthorizers } from './execution/tool-resource-authorizers.js';
import { ToolDiscovery } from './registry/tool-discovery.js';
import { ToolRegistry } from './registry/tool-registry.js';

/** Tool registry (with `@AgentTool` discovery), the catalog API and the execution boundary. */
@Module({
  imports: [DiscoveryModule, TypeOrmModule.forFeature([ToolCallEntity])],
  controllers: [ToolsController],
  providers: [
    ToolRegistry,
    ToolDiscovery,
    ToolCatalog,
    ToolExecutor,
    ToolMetrics,
    ToolResourceAuthorizers,
    LargeResultOffloader,
    ToolCallAuditRepository,
    ToolCallAuditWriter,
    ToolEvents,
  ],
  exports: [
    ToolRegistry,
    ToolCatalog,
    ToolExecutor,
    ToolMetrics,
    ToolResourceAuthorizers,
    LargeResultOffloader,
    ToolCallAuditWriter,
    ToolEvents,
  ],
})
export class ToolsModule {}
