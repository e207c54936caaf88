import picomatch from 'picomatch';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { WorkspaceErrors } from '../workspace.errors.js';
import { runBoundedWorker } from '../../../common/workers/bounded-worker.js';

/** A glob checked and compiled by picomatch; matching it is what can explode, so a worker does that. */
export interface CompiledGlob {
  pattern: string;
  source: string;
  flags: string;
  /** A pattern without `/` in grep's `glob` matches the base name at any depth. */
  basename: boolean;
}

const LIMITS = WORKSPACE_LIMITS.glob;

/**
 * The worker's code: picomatch's own test (the pattern itself, else its expression against the path or
 * its base name) over every path; answers the indexes that match.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { pattern, source, flags, basename, paths } = workerData;
const regex = new RegExp(source, flags);
const matched = [];
for (let i = 0; i < paths.length; i++) {
  const path = paths[i];
  if (path === '') continue;
  let subject = path;
  if (basename) {
    const segments = path.split('/');
    subject = segments[segments.length - 1] || segments[segments.length - 2] || '';
  }
  if (path === pattern || regex.test(subject)) matched.push(i);
}
parentPort.postMessage(matched);
`;

/** `*` runs, `?` and the extglob openers `+(`, `@(`, `!(`; escaped characters do not count. */
function wildcardsIn(pattern: string): number {
  let count = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i += 1;
    else if (c === '*') {
      count += 1;
      while (pattern[i + 1] === '*') i += 1;
    } else if (c === '?' || ((c === '+' || c === '@' || c === '!') && pattern[i + 1] === '(')) count += 1;
  }
  return count;
}

/** Checks and compiles a glob relative to the search directory; absolute patterns and `..` are refused. */
export function compileGlob(pattern: string, options: { basename?: boolean } = {}): CompiledGlob {
  if (pattern.includes('\0')) throw WorkspaceErrors.invalidPattern(pattern, 'it contains a NUL byte');
  if (pattern.length > LIMITS.maxPatternChars) {
    throw WorkspaceErrors.invalidPattern(pattern, `it is longer than ${LIMITS.maxPatternChars} characters`);
  }
  const wildcards = wildcardsIn(pattern);
  if (wildcards > LIMITS.maxWildcards) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      `it has ${wildcards} wildcards; at most ${LIMITS.maxWildcards} are allowed (use a shorter pattern and narrow the path)`,
    );
  }
  if (pattern.startsWith('/')) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      'patterns are relative to `path`; pass the directory as `path`',
    );
  }
  if (pattern.split('/').includes('..')) throw WorkspaceErrors.invalidPattern(pattern, '`..` is not allowed');
  const basename = options.basename === true;
  try {
    const regex = picomatch.makeRe(pattern, { dot: false, basename });
    return { pattern, source: regex.source, flags: regex.flags, basename };
  } catch (error) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      error instanceof Error ? error.message : 'cannot be parsed',
    );
  }
}

/** The indexes of the `paths` the glob matches, computed in a worker under the glob's time budget. */
export async function matchGlob(
  glob: CompiledGlob,
  paths: readonly string[],
  signal: AbortSignal,
): Promise<number[]> {
  if (paths.length === 0) return [];
  return runBoundedWorker<number[]>(
    {
      source: WORKER_SOURCE,
      workerData: { ...glob, paths },
      budgetMs: LIMITS.matchBudgetMs,
      onTimeout: () => WorkspaceErrors.searchTimeout(LIMITS.matchBudgetMs, 'glob'),
    },
    signal,
  );
}
