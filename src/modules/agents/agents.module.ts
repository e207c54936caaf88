import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ToolsModule } from '../tools/index.js';
import { UsersModule } from '../users/index.js';
import { AgentEntity } from './agent.entity.js';
import { AgentApprovalPolicies } from './approval/agent-approval-policies.js';
import { AgentsController } from './agents.controller.js';
import { AgentsRepository } from './agents.repository.js';
import { AgentsService } from './agents.service.js';
import { BuiltinAgents } from './builtin-agents.js';
import { AgentConfigEditor } from './config/agent-config-editor.js';
import { ConfigurableItems } from './config/configurable-items.js';
import { AgentResourceCatalog } from './resources/agent-resource-catalog.js';
import { AgentResourceSources } from './resources/agent-resource-sources.js';
import { BuiltinToolsSource } from './resources/builtin-tools.source.js';
import { SubagentsSource } from './resources/subagents.source.js';
import { ShareConfigPolicy } from './sharing/share-config-policy.js';

/**
 * Agents: CRUD with share scopes, config validation and merge rules, builtin agents. Exports
 * `AgentsService.findUsable` (by slug, for new threads) and `accessById` (for runs), `AgentApprovalPolicies`
 * (an agent's current tool approval policy, for runs) and `AgentResourceCatalog`, where the skills,
 * knowledge and MCP modules register the ids their resource field may reference.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AgentEntity]), ToolsModule, UsersModule],
  controllers: [AgentsController],
  providers: [
    AgentsRepository,
    AgentsService,
    AgentConfigEditor,
    ConfigurableItems,
    ShareConfigPolicy,
    AgentResourceCatalog,
    AgentResourceSources,
    BuiltinToolsSource,
    SubagentsSource,
    BuiltinAgents,
    AgentApprovalPolicies,
  ],
  exports: [AgentsService, AgentResourceCatalog, AgentApprovalPolicies],
})
export class AgentsModule {}
