import { lstat, realpath } from 'node:fs/promises';
import { dirname, sep } from 'node:path';
import { WorkspaceErrors } from '../workspace.errors.js';

export function isWithin(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(sep) ? root : root + sep);
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | null)?.code;
}

/**
 * Refuses a target whose symbolic links lead outside `root`: the realpath of the target when it exists,
 * or else of its deepest existing ancestor, must lie under the realpath of the root. Components below
 * that ancestor do not exist yet, so creating them cannot leave the root. A dangling symlink cannot be
 * checked and is refused (writing through it would create its target wherever it points).
 */
export async function assertContained(root: string, target: string, shownPath: string): Promise<void> {
  let realRoot: string;
  try {
    realRoot = await realpath(root);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw WorkspaceErrors.notFound(shownPath);
    throw error;
  }
  let probe = target;
  for (;;) {
    try {
      await lstat(probe);
      break;
    } catch (error) {
      const code = errorCode(error);
      if ((code !== 'ENOENT' && code !== 'ENOTDIR') || probe === root || !isWithin(root, probe)) throw error;
      probe = dirname(probe);
    }
  }
  let resolved: string;
  try {
    resolved = await realpath(probe);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ENOENT' || code === 'ELOOP')
      throw WorkspaceErrors.pathNotAllowed(shownPath, 'symlink_escape');
    throw error;
  }
  if (!isWithin(realRoot, resolved)) throw WorkspaceErrors.pathNotAllowed(shownPath, 'symlink_escape');
}
