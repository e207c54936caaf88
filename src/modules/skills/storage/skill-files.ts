import { randomUUID } from 'node:crypto';
import { lstat, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { SkillFile } from '../package/skill-package.js';
import { checkSkillFilePath } from '../package/skill-path.js';
import { SKILL_LIMITS } from '../skills-limits.js';
import { SkillsErrors } from '../skills.errors.js';

/** One entry of a skill's tree. */
export interface SkillTreeEntry {
  path: string;
  size: number;
}

/** The order of a skill's files everywhere (tree, hash, export). */
export const comparePaths = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const errno = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;

/**
 * The real path of `path` inside the skill folder `dir`, after the path rules; every existing component
 * is checked with `lstat`, so a symbolic link anywhere on the way (planted by a script, say) is refused
 * (422) instead of followed.
 */
export async function fileInSkill(dir: string, path: string): Promise<string> {
  const segments = checkSkillFilePath(path).split('/');
  let current = dir;
  for (const segment of segments) {
    current = join(current, segment);
    try {
      if ((await lstat(current)).isSymbolicLink()) throw SkillsErrors.symlinkRefused(path);
    } catch (error) {
      // The rest does not exist yet (a file created in a new folder): nothing further to check.
      if (errno(error) === 'ENOENT' || errno(error) === 'ENOTDIR') break;
      throw error;
    }
  }
  return join(dir, ...segments);
}

/** A file of a skill's tree with what `lstat` says of it (sizes for the limits, stamps for revisions). */
export interface SkillTreeStat extends SkillTreeEntry {
  mtimeMs: number;
  ino: number;
}

/** Regular files under `dir` in path order, with their `lstat`; links and other special files are left out. */
export async function statSkillTree(dir: string): Promise<SkillTreeStat[]> {
  const found: SkillTreeStat[] = [];
  const walk = async (folder: string, prefix: string, depth: number): Promise<void> => {
    if (depth > SKILL_LIMITS.maxDepth) return;
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await walk(full, path, depth + 1);
      else if (entry.isFile()) {
        if (found.length >= SKILL_LIMITS.maxFiles) throw SkillsErrors.tooManyFiles(SKILL_LIMITS.maxFiles);
        const info = await lstat(full);
        found.push({ path, size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
      }
    }
  };
  await walk(dir, '', 1);
  return found.sort((a, b) => comparePaths(a.path, b.path));
}

/** Regular files under `dir` in path order; symbolic links and other special files are left out. */
export async function listSkillTree(dir: string): Promise<SkillTreeEntry[]> {
  return (await statSkillTree(dir)).map(({ path, size }) => ({ path, size }));
}

/** Every file of a skill with its bytes (export, hashing, builtin comparison). */
export async function readSkillFiles(dir: string): Promise<SkillFile[]> {
  const tree = await listSkillTree(dir);
  return Promise.all(tree.map(async ({ path }) => ({ path, content: await readFile(join(dir, path)) })));
}

/** Bytes of a file, or null when it does not exist (or is not a regular file). */
export async function readFileIfExists(realPath: string): Promise<Buffer | null> {
  try {
    const info = await lstat(realPath);
    if (!info.isFile()) return null;
    return await readFile(realPath);
  } catch (error) {
    if (errno(error) === 'ENOENT' || errno(error) === 'ENOTDIR') return null;
    throw error;
  }
}

/** Writes through a temp file in the same folder and a rename: readers see the old or the new file. */
export async function writeFileAtomic(realPath: string, content: Buffer | string): Promise<void> {
  await mkdir(dirname(realPath), { recursive: true });
  const temp = join(dirname(realPath), `.tmp-${randomUUID()}`);
  try {
    await writeFile(temp, content, { flag: 'wx' });
    await rename(temp, realPath);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * Puts a whole skill in place as `<parent>/<name>`: the files are written to a staging folder next to it
 * (names starting with `.` are never skills) and renamed in; a folder already there is swapped out and
 * removed. On failure nothing is left behind.
 */
export async function installSkillFolder(parent: string, name: string, files: SkillFile[]): Promise<void> {
  await mkdir(parent, { recursive: true });
  const staging = join(parent, `.staging-${randomUUID()}`);
  const target = join(parent, name);
  try {
    for (const file of files) {
      const path = join(staging, ...checkSkillFilePath(file.path).split('/'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.content, { flag: 'wx' });
    }
    await removeSkillFolder(target);
    await rename(staging, target);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/** Removes a skill folder: renamed aside first, so it disappears at once even if removal takes a while. */
export async function removeSkillFolder(dir: string): Promise<void> {
  const trash = join(dirname(dir), `.trash-${randomUUID()}`);
  try {
    await rename(dir, trash);
  } catch (error) {
    if (errno(error) === 'ENOENT') return;
    throw error;
  }
  await rm(trash, { recursive: true, force: true });
}

/** Removes empty folders from `realPath`'s parent up to (not including) `dir`. */
export async function pruneEmptyFolders(dir: string, realPath: string): Promise<void> {
  let folder = dirname(realPath);
  while (folder.startsWith(dir) && folder !== dir) {
    const entries = await readdir(folder).catch(() => null);
    if (entries === null || entries.length > 0) return;
    await rm(folder, { recursive: true, force: true });
    folder = dirname(folder);
  }
}
