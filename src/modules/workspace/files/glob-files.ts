import { lstat } from 'node:fs/promises';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { compileGlob, matchGlob } from './glob-match.js';
import { walkFiles } from './walk-files.js';

/** Files below `start` matching `pattern`, newest first (ties by path), at most `glob.maxResults`. */
export async function globFiles(
  start: ResolvedWorkspacePath,
  pattern: string,
  signal: AbortSignal,
): Promise<string> {
  const glob = compileGlob(pattern);
  const walk = await walkFiles(start);
  const hits = await matchGlob(
    glob,
    walk.files.map((file) => file.relativePath),
    signal,
  );
  const matched = hits.map((index) => walk.files[index]);
  const dated = await Promise.all(
    matched.map(async (file) => ({
      path: file.virtualPath,
      modified: (await lstat(file.realPath).catch(() => undefined))?.mtimeMs ?? 0,
    })),
  );
  dated.sort((a, b) => b.modified - a.modified || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { maxResults } = WORKSPACE_LIMITS.glob;
  const lines = dated.slice(0, maxResults).map((file) => file.path);
  if (lines.length === 0) lines.push(`No files under ${start.virtualPath} match ${pattern}.`);
  if (dated.length > maxResults)
    lines.push(`[${dated.length} files match; the newest ${maxResults} are shown]`);
  if (walk.truncated) {
    lines.push(`[the search stopped after ${WORKSPACE_LIMITS.walk.maxEntries} entries; narrow the path]`);
  }
  return lines.join('\n');
}
