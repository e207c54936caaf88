import { createHash } from 'node:crypto';
import { constants, type ReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { comparePaths, type SkillTreeStat } from './skill-files.js';

/** A change about to be written: the file's new bytes, or null when it is deleted. */
export interface PendingFile {
  path: string;
  content: Buffer | null;
}

/** Opens a skill file for reading without following a link planted in its place. */
export async function openSkillFile(dir: string, path: string): Promise<ReadStream> {
  const handle = await open(join(dir, path), constants.O_RDONLY | constants.O_NOFOLLOW);
  return handle.createReadStream();
}

/**
 * The skill's content hash (the digest `packageHash` gives for the same files) of the tree `tree` with
 * `pending` applied, computed before that change is written: the files are streamed one at a time, so a
 * write never holds the whole skill in memory. Computed on writes and stored; reads serve the stored one.
 */
export async function hashSkillTree(
  dir: string,
  tree: readonly SkillTreeStat[],
  pending: PendingFile,
): Promise<string> {
  const sizes = new Map(tree.map((file) => [file.path, file.size]));
  if (pending.content === null) sizes.delete(pending.path);
  else sizes.set(pending.path, pending.content.length);
  const hash = createHash('sha256');
  for (const path of [...sizes.keys()].sort(comparePaths)) {
    hash.update(`${path}\0${sizes.get(path)}\0`);
    if (path === pending.path && pending.content !== null) {
      hash.update(pending.content);
      continue;
    }
    for await (const chunk of await openSkillFile(dir, path)) hash.update(chunk as Buffer);
  }
  return hash.digest('hex');
}

/**
 * A personal skill's revision: its files' paths, sizes, modification times and inodes, so it changes
 * with any write (the API's atomic writes, or an agent's in the workspace) without reading a byte.
 */
export function treeStamp(tree: readonly SkillTreeStat[]): string {
  const hash = createHash('sha256');
  for (const file of tree) hash.update(`${file.path}\0${file.size}\0${file.mtimeMs}\0${file.ino}\n`);
  return hash.digest('hex').slice(0, 32);
}
