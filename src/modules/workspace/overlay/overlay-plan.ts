import { lstat, readdir, readlink } from 'node:fs/promises';
import { join, posix } from 'node:path';

/** An overlay's upper layer over a folder, and every path (relative) of the merged view once it was done. */
export interface OverlayLayer {
  upperDir: string;
  survivors: ReadonlySet<string>;
  /** When the writer started (epoch ms): an entry of the folder changed since is not its to delete. */
  startedAt: number;
}

export interface OverlayPlan {
  /** Relative paths removed from the folder (whole trees). */
  deletions: string[];
  /** Relative folders to create, parents first. */
  directories: string[];
  /** Relative files with their content in the upper layer. */
  files: { path: string; source: string; size: number; mode: number }[];
  /** Relative links whose target stays inside the folder; others are dropped. */
  links: { path: string; target: string }[];
  /** What was left out (links out of the folder, devices, sockets, fifos). */
  skipped: string[];
}

const isWhiteout = (stats: { isCharacterDevice(): boolean; rdev: number }) =>
  stats.isCharacterDevice() && stats.rdev === 0;

/** A relative link target that, resolved from `path`, stays in the folder. */
function staysInside(path: string, target: string): boolean {
  if (target.startsWith('/')) return false;
  const resolved = posix.normalize(posix.join(posix.dirname(path), target));
  return resolved !== '..' && !resolved.startsWith('../');
}

/**
 * What applying the upper layer to `folder` does: each folder the layer touched is compared with the
 * merged view (`survivors`), so whiteouts and folders emptied and made anew both become deletions
 * without reading the overlay's own markers.
 */
export async function planOverlay(folder: string, layer: OverlayLayer): Promise<OverlayPlan> {
  const plan: OverlayPlan = { deletions: [], directories: [], files: [], links: [], skipped: [] };
  const pending = [''];
  while (pending.length > 0) {
    const relative = pending.shift()!;
    const upper = join(layer.upperDir, relative);
    const inUpper = new Set<string>();
    for (const entry of await readdir(upper)) {
      const path = relative === '' ? entry : `${relative}/${entry}`;
      inUpper.add(entry);
      const stats = await lstat(join(upper, entry));
      if (isWhiteout(stats) || !layer.survivors.has(path)) continue;
      if (stats.isDirectory()) {
        plan.directories.push(path);
        pending.push(path);
      } else if (stats.isFile()) {
        plan.files.push({ path, source: join(upper, entry), size: stats.size, mode: stats.mode & 0o777 });
      } else if (stats.isSymbolicLink()) {
        const target = await readlink(join(upper, entry));
        if (staysInside(path, target)) plan.links.push({ path, target });
        else plan.skipped.push(path);
      } else plan.skipped.push(path);
    }
    // Entries of the folder here that the command's view no longer has were deleted by it.
    // Read only a real folder here: never through a link (a link replaced by a folder went above).
    const here = await lstat(join(folder, relative)).catch(() => null);
    const existing = here?.isDirectory() === true ? await readdir(join(folder, relative)) : [];
    for (const entry of existing) {
      const path = relative === '' ? entry : `${relative}/${entry}`;
      if (!layer.survivors.has(path)) {
        // Made or changed by another writer while this one ran (another command of the user): kept.
        const stats = await lstat(join(folder, path));
        if (stats.ctimeMs < layer.startedAt) plan.deletions.push(path);
      } else if (inUpper.has(entry)) {
        // Replaced by another kind (a file where a folder was): the old one goes first.
        const before = await lstat(join(folder, path));
        const after = await lstat(join(upper, entry));
        if (before.isDirectory() !== after.isDirectory()) plan.deletions.push(path);
      }
    }
  }
  return plan;
}
