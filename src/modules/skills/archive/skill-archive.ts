import { readSafeArchive, type ArchiveFile, type SafeArchiveLimits } from '../../../common/archive/index.js';

/**
 * The archive rules for skill uploads and remote sources (`docs/api.md` "Skills"): over 1000 files, 2000
 * entries or 64 levels → 422, over 100 MB inflated → 413. A file over 1 MiB may inflate to at most 100
 * times its compressed size: text, scripts and assets stay far below (deflate tops out near 1032).
 */
export const SKILL_ARCHIVE_LIMITS: Readonly<SafeArchiveLimits> = {
  maxFiles: 1000,
  maxEntries: 2000,
  maxDepth: 64,
  maxUnzippedBytes: 100 * 1024 * 1024,
  maxRatio: 100,
  graceBytes: 1024 * 1024,
};

/**
 * The files of an uploaded or fetched skill archive, in memory, checked and inflated under `limits`;
 * throws an `ArchiveRefusal` (`reason` says which rule) before anything is written anywhere.
 */
export const readSkillArchive = (
  bytes: Uint8Array,
  limits: SafeArchiveLimits = SKILL_ARCHIVE_LIMITS,
): { entries: ArchiveFile[] } => readSafeArchive(bytes, limits);
