import { WorkspaceErrors } from '../workspace.errors.js';
import { runBoundedWorker } from '../../../common/workers/bounded-worker.js';

/** [file index, 0-based line index] of each matching line, in order. */
export type LineHit = [number, number];

export interface RegexSearchJob {
  source: string;
  flags: string;
  texts: string[];
  maxMatches: number;
}

/**
 * The worker's code, as plain JavaScript so it runs the same from `dist/` and under Jest. Lines are
 * split exactly as `splitLines` does.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { source, flags, texts, maxMatches } = workerData;
const regex = new RegExp(source, flags);
const hits = [];
search: for (let file = 0; file < texts.length; file++) {
  const lines = texts[file].split('\\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (let line = 0; line < lines.length; line++) {
    const text = lines[line].endsWith('\\r') ? lines[line].slice(0, -1) : lines[line];
    if (regex.test(text)) {
      hits.push([file, line]);
      if (hits.length >= maxMatches) break search;
    }
  }
}
parentPort.postMessage(hits);
`;

/** Checks a user-supplied regular expression (constructing one is cheap; matching is what can explode). */
export function compileUserRegex(
  pattern: string,
  caseInsensitive: boolean,
): { source: string; flags: string } {
  const flags = caseInsensitive ? 'i' : '';
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw WorkspaceErrors.invalidPattern(
      pattern,
      `${error instanceof Error ? error.message : 'not a regular expression'} (set literal: true to search plain text)`,
    );
  }
  return { source: pattern, flags };
}

/** Runs a regular expression search in a worker thread under `budgetMs` (see `runBoundedWorker`). */
export function runRegexSearch(
  job: RegexSearchJob,
  budgetMs: number,
  signal: AbortSignal,
): Promise<LineHit[]> {
  return runBoundedWorker<LineHit[]>(
    {
      source: WORKER_SOURCE,
      workerData: job,
      budgetMs,
      onTimeout: () => WorkspaceErrors.searchTimeout(budgetMs, 'regex'),
    },
    signal,
  );
}
