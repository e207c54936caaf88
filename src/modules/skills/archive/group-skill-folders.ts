import type { ArchiveFile } from '../../../common/archive/index.js';

export const SKILL_FILE = 'SKILL.md';

export interface SkillFolder {
  /** The folder holding the SKILL.md, as stored in the archive (`''` for the archive's root). */
  folder: string;
  /** Every file under the folder, with paths relative to it (`SKILL.md`, `scripts/run.py`). */
  files: ArchiveFile[];
}

export interface SkillFolderFailure {
  folder: string;
  path: string;
  /** `skill_md_misnamed`: the folder's only skill file is spelt otherwise (`skill.md`, `Skill.MD`). */
  reason: 'skill_md_misnamed';
}

export interface NestedSkillMd {
  /** The SKILL.md found inside another skill's folder… */
  path: string;
  /** …and that folder. */
  insideFolder: string;
}

export interface SkillFolders {
  items: SkillFolder[];
  failures: SkillFolderFailure[];
  /** Not empty: the archive is refused (422), a skill may not hold another. */
  nestedSkillMd: NestedSkillMd[];
}

const folderOf = (path: string): string => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
const baseOf = (path: string): string => path.slice(path.lastIndexOf('/') + 1);
const isUnder = (path: string, folder: string): boolean => folder === '' || path.startsWith(`${folder}/`);

/**
 * Splits an archive's files into skills: every folder holding a `SKILL.md`, at any depth, is one item
 * with all the files under it, so a whole repository, a collection (`skills/<slug>/`) or a GitHub
 * archive (one wrapping top folder) all work. Files outside skill folders are ignored. A SKILL.md inside
 * another skill's folder is reported in `nestedSkillMd` and makes no item of its own.
 */
export function groupSkillFolders(entries: readonly ArchiveFile[]): SkillFolders {
  const skillFolders = [
    ...new Set(entries.filter((e) => baseOf(e.path) === SKILL_FILE).map((e) => folderOf(e.path))),
  ].sort((a, b) => a.split('/').length - b.split('/').length || (a < b ? -1 : 1));
  const outermost: string[] = [];
  const nestedSkillMd: NestedSkillMd[] = [];
  for (const folder of skillFolders) {
    const parent = outermost.find((outer) => outer !== folder && isUnder(folder, outer));
    if (parent === undefined) outermost.push(folder);
    else
      nestedSkillMd.push({
        path: folder === '' ? SKILL_FILE : `${folder}/${SKILL_FILE}`,
        insideFolder: parent,
      });
  }
  const ordered = [...outermost].sort();
  const items = ordered.map((folder) => ({
    folder,
    files: entries
      .filter((e) => isUnder(e.path, folder))
      .map((e) => ({ path: folder === '' ? e.path : e.path.slice(folder.length + 1), bytes: e.bytes })),
  }));
  const failures = entries
    .filter((e) => baseOf(e.path).toLowerCase() === 'skill.md' && baseOf(e.path) !== SKILL_FILE)
    .filter((e) => !outermost.some((folder) => isUnder(e.path, folder)))
    .map((e) => ({ folder: folderOf(e.path), path: e.path, reason: 'skill_md_misnamed' as const }));
  return { items, failures, nestedSkillMd };
}
