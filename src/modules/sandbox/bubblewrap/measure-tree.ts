import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Bytes of the regular files under `root` and how many entries it holds (0 when it does not exist);
 * entries vanishing meanwhile are skipped.
 */
export async function measureTree(root: string): Promise<{ bytes: number; entries: number }> {
  let total = 0;
  let count = 0;
  const pending = [root];
  while (pending.length > 0) {
    const dir = pending.pop()!;
    let entries;
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    count += entries.length;
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) total += (await lstat(path).catch(() => ({ size: 0 }))).size;
    }
  }
  return { bytes: total, entries: count };
}
