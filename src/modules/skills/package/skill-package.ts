import { createHash } from 'node:crypto';
import { SKILL_LIMITS } from '../skills-limits.js';
import { SkillsErrors } from '../skills.errors.js';
import { parseSkillMd, type ParseSkillMdOptions, type SkillManifest } from './skill-md.js';
import { checkSkillFilePath, decodeUtf8Text, ROOT_SKILL_FILE } from './skill-path.js';

export interface SkillFile {
  /** Relative, `/`-separated (see `checkSkillFilePath`). */
  path: string;
  /** Kept byte for byte (scripts, references and assets need not be text). */
  content: Buffer;
}

/** A parsed skill ready to install: its manifest and every file, the root SKILL.md among them. */
export interface SkillPackage {
  manifest: SkillManifest;
  files: SkillFile[];
}

/**
 * Checks a set of files as one skill (safe unique paths, the limits, a root SKILL.md that parses) and
 * returns the package. Pure: the archive and upload readers of the install flow build their file lists
 * and call this.
 */
export function buildSkillPackage(files: SkillFile[], options: ParseSkillMdOptions = {}): SkillPackage {
  if (files.length > SKILL_LIMITS.maxFiles) throw SkillsErrors.tooManyFiles(SKILL_LIMITS.maxFiles);
  const seen = new Set<string>();
  let total = 0;
  for (const file of files) {
    checkSkillFilePath(file.path);
    if (seen.has(file.path)) throw SkillsErrors.invalidPath(file.path, 'appears twice');
    seen.add(file.path);
    total += file.content.length;
  }
  for (const path of seen) {
    // A file may not also be a folder of another file (`a` and `a/b`).
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) {
      if (seen.has(parts.slice(0, i).join('/'))) throw SkillsErrors.invalidPath(path, 'is inside a file');
    }
  }
  if (total > SKILL_LIMITS.maxPackageBytes) {
    throw SkillsErrors.packageTooLarge(SKILL_LIMITS.maxPackageBytes);
  }
  const root = files.find((file) => file.path === ROOT_SKILL_FILE);
  if (root === undefined) throw SkillsErrors.invalidSkillMd('frontmatter', 'the skill has no root SKILL.md');
  if (root.content.length > SKILL_LIMITS.maxTextFileBytes) {
    throw SkillsErrors.fileTooLarge(ROOT_SKILL_FILE, SKILL_LIMITS.maxTextFileBytes);
  }
  const manifest = parseSkillMd(decodeUtf8Text(ROOT_SKILL_FILE, root.content), options);
  return { manifest, files: [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)) };
}

/** An opaque version of one file's content (a read returns it; a write must present it). */
export function contentRevision(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex').slice(0, 32);
}

/** A digest of a whole skill: every path and content, in path order. */
export function packageHash(files: readonly { path: string; content: Buffer }[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    hash.update(`${file.path}\0${file.content.length}\0`);
    hash.update(file.content);
  }
  return hash.digest('hex');
}
