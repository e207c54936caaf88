import { ArchiveRefusal } from '../../../common/archive/index.js';
import { DomainError } from '../../../common/errors/index.js';
import { groupSkillFolders, SKILL_FILE } from '../archive/group-skill-folders.js';
import { readSkillArchive } from '../archive/skill-archive.js';
import { buildSkillPackage, type SkillPackage } from '../package/skill-package.js';
import { SkillsErrorCode, SkillsErrors } from '../skills.errors.js';

/** An upload is a zip (by its signature) or a single SKILL.md. */
export type UploadKind = 'zip' | 'skill_md';

export interface ParsedSkill {
  /** The skill's folder in the upload (`''`: the archive's root, or a single SKILL.md). */
  folder: string;
  pkg: SkillPackage;
}

export interface UploadFailure {
  path: string;
  error: string;
  code: string;
}

export interface ParsedUpload {
  items: ParsedSkill[];
  failures: UploadFailure[];
}

const ZIP_SIGNATURES = [Buffer.from('PK\x03\x04', 'latin1'), Buffer.from('PK\x05\x06', 'latin1')];

export function uploadKindOf(bytes: Buffer): UploadKind {
  return ZIP_SIGNATURES.some((sig) => bytes.subarray(0, 4).equals(sig)) ? 'zip' : 'skill_md';
}

const skillMdPath = (folder: string) => (folder === '' ? SKILL_FILE : `${folder}/${SKILL_FILE}`);

/**
 * Parses an upload into skills: every skill folder of a zip, or the one SKILL.md. A folder that does not
 * parse becomes a failure; throws (writing nothing) when the archive is refused, a SKILL.md is nested in
 * another skill's folder, or no skill parses at all.
 */
export function parseSkillUpload(bytes: Buffer, kind: UploadKind = uploadKindOf(bytes)): ParsedUpload {
  const folders =
    kind === 'skill_md'
      ? { items: [{ folder: '', files: [{ path: SKILL_FILE, bytes }] }], failures: [], nestedSkillMd: [] }
      : groupSkillFolders(readArchive(bytes));
  const nested = folders.nestedSkillMd[0];
  if (nested !== undefined) throw SkillsErrors.nestedSkillMd(nested.path, nested.insideFolder);
  const failures: UploadFailure[] = folders.failures.map((f) => ({
    path: f.path,
    error: 'the skill file must be named exactly SKILL.md',
    code: SkillsErrorCode.INVALID_SKILL_MD,
  }));
  const items: ParsedSkill[] = [];
  for (const folder of folders.items) {
    try {
      const pkg = buildSkillPackage(
        folder.files.map((file) => ({ path: file.path, content: Buffer.from(file.bytes) })),
      );
      if (items.some((item) => item.pkg.manifest.slug === pkg.manifest.slug)) {
        failures.push({
          path: skillMdPath(folder.folder),
          error: `another skill in the upload has the slug "${pkg.manifest.slug}"`,
          code: SkillsErrorCode.INVALID_SKILL_MD,
        });
        continue;
      }
      items.push({ folder: folder.folder, pkg });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      failures.push({ path: skillMdPath(folder.folder), error: error.message, code: error.code });
    }
  }
  if (items.length === 0) throw SkillsErrors.noSkillFound(failures);
  return { items, failures };
}

/** The archive reader's refusals as the skills codes (`docs/api.md`: limits → 422, inflated size → 413). */
function readArchive(bytes: Buffer) {
  try {
    return readSkillArchive(bytes).entries;
  } catch (error) {
    if (!(error instanceof ArchiveRefusal)) throw error;
    const details = { ...error.details };
    switch (error.reason) {
      case 'path_unsafe':
      case 'symlink':
      case 'duplicate':
        throw SkillsErrors.unsafeArchive(error.reason, error.message, details);
      case 'too_many_files':
      case 'too_many_entries':
      case 'too_deep':
        throw SkillsErrors.archiveTooComplex(error.reason, error.message, details);
      case 'too_large':
      case 'ratio':
        throw SkillsErrors.archiveTooLarge(error.reason, error.message, details);
      case 'damaged':
        throw SkillsErrors.invalidArchive(error.message);
    }
  }
}
