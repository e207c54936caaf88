import { runBoundedWorker } from '../../../../common/workers/bounded-worker.js';
import { KnowledgeMcpErrors } from '../../knowledge.errors.js';

/**
 * The worker's code, plain JavaScript so it runs the same from `dist/` and under Jest: the 0-based
 * indexes of the lines any pattern matches.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { sources, flags, lines } = workerData;
const regexes = sources.map((source) => new RegExp(source, flags));
const hits = [];
for (let i = 0; i < lines.length; i++) {
  if (regexes.some((regex) => regex.test(lines[i]))) hits.push(i);
}
parentPort.postMessage(hits);
`;

/** Compiles each pattern once here (cheap) so that a syntax error is a clear tool error. */
export function checkPatterns(patterns: readonly string[], caseSensitive: boolean): string {
  const flags = caseSensitive ? '' : 'i';
  for (const pattern of patterns) {
    try {
      new RegExp(pattern, flags);
    } catch (error) {
      throw KnowledgeMcpErrors.invalidPattern(
        pattern,
        error instanceof Error ? error.message : 'not a regular expression',
      );
    }
  }
  return flags;
}

/**
 * Matches user-supplied regular expressions against a document's lines in a worker thread under a hard
 * time budget: a catastrophic pattern such as `(a+)+$` cannot be interrupted inside the event loop, but
 * the worker can be terminated, so the server never stalls.
 */
export function regexLineMatches(
  lines: readonly string[],
  patterns: readonly string[],
  caseSensitive: boolean,
  budgetMs: number,
): Promise<number[]> {
  const flags = checkPatterns(patterns, caseSensitive);
  return runBoundedWorker<number[]>({
    source: WORKER_SOURCE,
    workerData: { sources: patterns, flags, lines },
    budgetMs,
    onTimeout: () => KnowledgeMcpErrors.searchTimeout(budgetMs),
  });
}
