// The skills module's front door: what other modules may use. Everything else is internal.
import { SkillsSettingsEntity } from './settings/skills-settings.entity.js';
import { SkillEntity } from './storage/skill.entity.js';
import { SkillDraftEntity } from './drafts/skill-draft.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const SKILLS_ENTITIES = [SkillEntity, SkillsSettingsEntity, SkillDraftEntity];

export { SkillsModule } from './skills.module.js';
export { SkillsCoreModule } from './skills-core.module.js';
export { SkillsInstallToolModule } from './install/skills-install-tool.module.js';
export { SkillDraftsRetentionModule } from './drafts/skill-drafts-retention.module.js';
export { SkillDraftsRetention } from './drafts/skill-drafts-retention.js';
