import { Module } from '@nestjs/common';
import { WorkspaceModule } from '../workspace/index.js';
import { SkillFilesController } from './editing/skill-files.controller.js';
import { SkillEditor } from './editing/skill-editor.js';
import { SkillOpener } from './editing/opened-skill.js';
import { SkillsSettingsController } from './settings/skills-settings.controller.js';
import { SkillsCoreModule } from './skills-core.module.js';
import { SkillsController } from './skills.controller.js';
import { SkillsService } from './skills.service.js';

/** The skills HTTP API (`/api/skills`, `/api/system/settings/skills`) over `SkillsCoreModule`. */
@Module({
  imports: [SkillsCoreModule, WorkspaceModule],
  controllers: [SkillsController, SkillFilesController, SkillsSettingsController],
  providers: [SkillOpener, SkillEditor, SkillsService],
  exports: [SkillsCoreModule],
})
export class SkillsModule {}
