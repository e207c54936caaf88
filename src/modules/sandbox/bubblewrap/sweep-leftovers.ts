import { readdir, readFile, rm, rmdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SANDBOX_CGROUP_PARENTS } from './sandbox-cgroup.js';

const olderThan = async (path: string, cutoff: number): Promise<boolean> => {
  const stats = await stat(path).catch(() => null);
  return stats !== null && stats.mtimeMs < cutoff;
};

/**
 * Removes what sandboxes of a process that died left behind, once it is older than `staleMs` (no
 * command lives that long, whichever process runs it): scratch folders under `root`, and empty cgroups.
 */
export async function sweepLeftovers(
  root: string,
  staleMs: number,
  cgroupParents: readonly string[] = SANDBOX_CGROUP_PARENTS,
): Promise<void> {
  const cutoff = Date.now() - staleMs;
  for (const name of await readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith('run-') && !name.startsWith('probe-')) continue;
    const path = join(root, name);
    if (await olderThan(path, cutoff)) await rm(path, { recursive: true, force: true });
  }
  for (const parent of cgroupParents) {
    for (const name of await readdir(parent).catch(() => [] as string[])) {
      const path = join(parent, name);
      if (!(await olderThan(path, cutoff))) continue;
      const procs = await readFile(join(path, 'cgroup.procs'), 'utf8').catch(() => null);
      if (procs !== null && procs.trim() === '') await rmdir(path).catch(() => undefined);
    }
  }
}
