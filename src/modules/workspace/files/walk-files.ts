import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { onPath } from './fs-errors.js';

export interface WalkedFile {
  /** Relative to the walk's start, `/`-separated: what glob patterns match. */
  relativePath: string;
  virtualPath: string;
  realPath: string;
}

export interface Walk {
  files: WalkedFile[];
  /** The entry budget ran out before the tree did. */
  truncated: boolean;
}

/**
 * The regular files below a directory, in name order. Symbolic links are neither followed nor listed
 * (so a walk never leaves its root), hidden entries (`.name`) are skipped below the start, and the
 * number of entries visited and the depth are bounded.
 */
export async function walkFiles(start: ResolvedWorkspacePath): Promise<Walk> {
  const { maxEntries, maxDepth } = WORKSPACE_LIMITS.walk;
  const files: WalkedFile[] = [];
  let visited = 0;
  const visit = async (realDir: string, relativeDir: string, depth: number): Promise<boolean> => {
    const entries = await readdir(realDir, { withFileTypes: true });
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name.startsWith('.') || entry.isSymbolicLink()) continue;
      visited += 1;
      if (visited > maxEntries) return false;
      const relativePath = relativeDir === '' ? entry.name : `${relativeDir}/${entry.name}`;
      const realPath = join(realDir, entry.name);
      if (entry.isFile()) {
        files.push({ relativePath, virtualPath: `${start.virtualPath}/${relativePath}`, realPath });
      } else if (entry.isDirectory() && depth < maxDepth) {
        if (!(await visit(realPath, relativePath, depth + 1))) return false;
      }
    }
    return true;
  };
  const complete = await onPath(start.virtualPath, () => visit(start.realPath, '', 1));
  return { files, truncated: !complete };
}
