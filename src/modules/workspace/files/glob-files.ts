import picomatch from 'picomatch';
import { lstat } from 'node:fs/promises';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { walkFiles } from './walk-files.js';

/** Compiles a glob relative to the search directory; absolute patterns and `..` are refused. */
export function compileGlob(
  pattern: string,
  options: picomatch.PicomatchOptions = {},
): (path: string) => boolean {
  if (pattern.includes('\0')) throw WorkspaceErrors.invalidPattern(pattern, 'it contains a NUL byte');
  if (pattern.startsWith('/')) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      'patterns are relative to `path`; pass the directory as `path`',
    );
  }
  if (pattern.split('/').includes('..')) throw WorkspaceErrors.invalidPattern(pattern, '`..` is not allowed');
  try {
    return picomatch(pattern, { dot: false, ...options });
  } catch (error) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      error instanceof Error ? error.message : 'cannot be parsed',
    );
  }
}

/** Files below `start` matching `pattern`, newest first (ties by path), at most `glob.maxResults`. */
export async function globFiles(start: ResolvedWorkspacePath, pattern: string): Promise<string> {
  const isMatch = compileGlob(pattern);
  const walk = await walkFiles(start);
  const matched = walk.files.filter((file) => isMatch(file.relativePath));
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
