import { Module } from '@nestjs/common';
import { SafeHttpModule } from '../../../common/http-safety/index.js';
import { AgentsModule } from '../../agents/index.js';
import { ThreadsModule } from '../../threads/index.js';
import { ToolsModule } from '../../tools/index.js';
import { WorkspaceModule } from '../../workspace/index.js';
import { RemoteSkillArchives } from '../remote/remote-skill-archives.js';
import { SkillsCoreModule } from '../skills-core.module.js';
import { InstallSkillTool } from './install-skill.tool.js';

/** The `install_skill` tool (API and worker) and the remote archive fetcher the drafts routes share. */
@Module({
  imports: [SkillsCoreModule, WorkspaceModule, ToolsModule, SafeHttpModule, AgentsModule, ThreadsModule],
  providers: [RemoteSkillArchives, InstallSkillTool],
  exports: [RemoteSkillArchives],
})
export class SkillsInstallToolModule {}
