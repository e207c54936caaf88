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
