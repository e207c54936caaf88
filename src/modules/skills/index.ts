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
export { SkillsStore } from './storage/skills.store.js';
export { SkillResolution } from './runtime/skill-resolution.js';
export { SkillsSettings } from './settings/skills-settings.js';
export { SkillDependencyCatalog } from './dependencies/skill-dependency-catalog.js';
export type { McpServerDirectory } from './dependencies/skill-dependency-catalog.js';
export { buildSkillPackage } from './package/skill-package.js';
export type { SkillFile, SkillPackage } from './package/skill-package.js';
export { parseSkillMd } from './package/skill-md.js';
export type { SkillManifest } from './package/skill-md.js';
export { checkSkillFilePath, ROOT_SKILL_FILE } from './package/skill-path.js';
export { SKILL_LIMITS } from './skills-limits.js';
export { SkillsErrorCode } from './skills.errors.js';
export {
  groupSkillFolders,
  SKILL_FILE,
  type NestedSkillMd,
  type SkillFolder,
  type SkillFolderFailure,
  type SkillFolders,
} from './archive/group-skill-folders.js';
export { readSkillArchive, SKILL_ARCHIVE_LIMITS } from './archive/skill-archive.js';
export type { ArchiveFile } from '../../common/archive/index.js';
export { DEFAULT_REMOTE_SOURCE_HOSTS, parseRemoteSource } from './remote/parse-remote-source.js';
export { RemoteSourceError, type RemoteSourceRefusalReason } from './remote/remote-source.errors.js';
export {
  archiveUrlOf,
  fetchRemoteArchive,
  type FetchRemoteArchiveOptions,
  type GuardedFetch,
} from './remote/fetch-remote-archive.js';
