import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { onPath } from './fs-errors.js';

export interface ListedEntry {
  name: string;
  path: string;
  type: 'file' | 'dir' | 'symlink' | 'other';
  size: number;
  modified: string;
}

/** One directory's entries in name order; a symlink is listed as such, not followed. */
export async function listDirectory(target: ResolvedWorkspacePath): Promise<Record<string, unknown>> {
  const { maxEntries } = WORKSPACE_LIMITS.ls;
  const info = await onPath(target.virtualPath, () => stat(target.realPath));
  if (!info.isDirectory()) throw WorkspaceErrors.notADirectory(target.virtualPath);
  const names = (await onPath(target.virtualPath, () => readdir(target.realPath))).sort();
  const shown = names.slice(0, maxEntries);
  const entries = await Promise.all(
    shown.map(async (name): Promise<ListedEntry | undefined> => {
      const entry = await lstat(join(target.realPath, name)).catch(() => undefined);
      if (entry === undefined) return undefined; // removed while listing
      const type = entry.isSymbolicLink()
        ? 'symlink'
        : entry.isDirectory()
          ? 'dir'
          : entry.isFile()
            ? 'file'
            : 'other';
      return {
        name,
        path: `${target.virtualPath}/${name}`,
        type,
        size: entry.size,
        modified: entry.mtime.toISOString(),
      };
    }),
  );
  const listing: Record<string, unknown> = {
    path: target.virtualPath,
    entries: entries.filter((entry) => entry !== undefined),
  };
  if (names.length > shown.length) {
    listing.note = `Showing the first ${maxEntries} of ${names.length} entries; use glob to narrow down.`;
  }
  return listing;
}
