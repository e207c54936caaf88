import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface Measurement {
  bytes: number;
  /** false when the entry budget ran out before the tree did (the figure is then a lower bound). */
  complete: boolean;
}

/**
 * The bytes of the regular files below `root`, hidden ones included; symbolic links are neither
 * followed nor counted (they cannot leave the root through here). A missing root holds nothing.
 */
export async function measureUsage(root: string, maxEntries: number): Promise<Measurement> {
  let bytes = 0;
  let visited = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') continue; // removed while we walk
      throw error;
    }
    for (const entry of entries) {
      visited += 1;
      if (visited > maxEntries) return { bytes, complete: false };
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) bytes += await sizeOf(path);
    }
  }
  return { bytes, complete: true };
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await lstat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

/** The size of the regular file a write would replace, 0 when there is none. */
export async function replacedBytes(realPath: string): Promise<number> {
  try {
    const stats = await lstat(realPath);
    return stats.isFile() ? stats.size : 0;
  } catch {
    return 0;
  }
}
