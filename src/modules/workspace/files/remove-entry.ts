import { lstat, rm, unlink } from 'node:fs/promises';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { measureUsage, replacedBytes } from '../quota/measure-usage.js';
import type { WorkspaceQuota } from '../quota/workspace-quota.js';
import type { WorkspaceUser } from '../paths/workspace-user.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { onPath } from './fs-errors.js';

/**
 * Removes one file (a symbolic link itself, never its target) and gives its bytes back to the quota.
 * A directory is refused: deleting a tree is `removeTree`'s job, for whole workdirs only.
 */
export async function removeFile(
  quota: WorkspaceQuota,
  user: WorkspaceUser,
  target: ResolvedWorkspacePath,
): Promise<void> {
  const stats = await onPath(target.virtualPath, () => lstat(target.realPath));
  if (stats.isDirectory()) throw WorkspaceErrors.isADirectory(target.virtualPath);
  await quota.release(
    user,
    () => replacedBytes(target.realPath),
    () => onPath(target.virtualPath, () => unlink(target.realPath)),
  );
}

/** Removes a directory and everything below it (links are not followed); usage drops by its files. */
export async function removeTree(
  quota: WorkspaceQuota,
  user: WorkspaceUser,
  target: ResolvedWorkspacePath,
): Promise<void> {
  await quota.release(
    user,
    async () => (await measureUsage(target.realPath, WORKSPACE_LIMITS.quota.maxMeasuredEntries)).bytes,
    () => rm(target.realPath, { recursive: true, force: true }),
  );
}
