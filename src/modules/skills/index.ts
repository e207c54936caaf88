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
