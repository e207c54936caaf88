import { Module } from '@nestjs/common';
import { McpCoreModule } from '../mcp/index.js';
import { McpDependencyDirectory } from './dependencies/mcp-dependency-directory.js';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '../agents/index.js';
import { RunAssemblyPortsModule } from '../agent-runtime/index.js';
import { ToolsModule } from '../tools/index.js';
import { UsersModule } from '../users/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { BuiltinSkillsSync } from './builtin/builtin-skills.sync.js';
import { SkillDependencyCatalog } from './dependencies/skill-dependency-catalog.js';
import { SkillDependencyRules } from './dependencies/skill-dependency-rules.js';
import { SkillsSettingsEntity } from './settings/skills-settings.entity.js';
import { SkillsSettings } from './settings/skills-settings.js';
import { SkillEntity } from './storage/skill.entity.js';
import { SkillLocations } from './storage/skill-locations.js';
import { SkillReadPolicy } from './storage/skill-read.policy.js';
import { SkillShareConfigPolicy } from './storage/skill-share-config.policy.js';
import { SkillsRepository } from './storage/skills.repository.js';
import { SkillsStore } from './storage/skills.store.js';
import { SkillResolution } from './runtime/skill-resolution.js';
import { SkillRunConnector } from './runtime/skill-run-connector.js';
import { SkillToolVisibility } from './runtime/skill-tool-visibility.js';
import { SkillToolsSource } from './runtime/skill-tools.source.js';
import { SkillsResourceSource } from './runtime/skills-resource-source.js';

/**
 * What every process needs of skills (API and worker alike): the index and files, the builtin sync at
 * start, the read policy the workspace asks for `/home/gem/skills/<slug>/`, the install store, the
 * dependency port the MCP module fills, and the settings.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([SkillEntity, SkillsSettingsEntity]),
    WorkspaceModule,
    ToolsModule,
    UsersModule,
    McpCoreModule,
    AgentsModule,
    RunAssemblyPortsModule,
  ],
  providers: [
    McpDependencyDirectory,
    SkillsRepository,
    SkillLocations,
    SkillShareConfigPolicy,
    SkillDependencyCatalog,
    SkillDependencyRules,
    SkillsStore,
    SkillReadPolicy,
    BuiltinSkillsSync,
    SkillsSettings,
    SkillsResourceSource,
    SkillResolution,
    SkillRunConnector,
    SkillToolsSource,
    SkillToolVisibility,
  ],
  exports: [
    SkillsRepository,
    SkillLocations,
    SkillShareConfigPolicy,
    SkillDependencyCatalog,
    SkillDependencyRules,
    SkillsStore,
    SkillsSettings,
    SkillResolution,
  ],
})
export class SkillsCoreModule {}
