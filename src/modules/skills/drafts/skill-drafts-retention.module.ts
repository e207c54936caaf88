import { Module } from '@nestjs/common';
import { SkillDraftFiles } from './skill-draft-files.js';
import { SkillDraftsRetention } from './skill-drafts-retention.js';
import { SkillDraftsRepository } from './skill-drafts.repository.js';

/** Skill drafts' rows and files, and their cleaning job: for the drafts API and the worker alike. */
@Module({
  providers: [SkillDraftsRepository, SkillDraftFiles, SkillDraftsRetention],
  exports: [SkillDraftsRepository, SkillDraftFiles, SkillDraftsRetention],
})
export class SkillDraftsRetentionModule {}
