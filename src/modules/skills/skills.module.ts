import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { AppConfig } from '../../config/app-config.js';
import { WorkspaceModule } from '../workspace/index.js';
import { SkillFilesController } from './editing/skill-files.controller.js';
import { SkillEditor } from './editing/skill-editor.js';
import { SkillOpener } from './editing/opened-skill.js';
import { SkillsSettingsController } from './settings/skills-settings.controller.js';
import { SkillsCoreModule } from './skills-core.module.js';
import { SkillsController } from './skills.controller.js';
import { SkillsService } from './skills.service.js';
import { RemoteSkillDrafts } from './drafts/remote-skill-drafts.js';
import { SkillDraftsController } from './drafts/skill-drafts.controller.js';
import { SkillDraftsService } from './drafts/skill-drafts.service.js';
import { SkillDraftsRetentionModule } from './drafts/skill-drafts-retention.module.js';
import { skillUploadMulterOptions } from './drafts/skill-upload.js';
import { SkillsInstallToolModule } from './install/skills-install-tool.module.js';

/** The skills HTTP API (`/api/skills`, `/api/system/settings/skills`) over `SkillsCoreModule`. */
@Module({
  imports: [
    SkillsCoreModule,
    WorkspaceModule,
    SkillsInstallToolModule,
    SkillDraftsRetentionModule,
    MulterModule.registerAsync({ inject: [AppConfig], useFactory: skillUploadMulterOptions }),
  ],
  controllers: [SkillDraftsController, SkillsController, SkillFilesController, SkillsSettingsController],
  providers: [SkillOpener, SkillEditor, SkillsService, SkillDraftsService, RemoteSkillDrafts],
  exports: [SkillsCoreModule],
})
export class SkillsModule {}
