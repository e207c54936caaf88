import { readFile, stat } from 'node:fs/promises';
import type { ResolvedWorkspacePath } from '../paths/workspace-path-resolver.js';
import { WORKSPACE_LIMITS } from '../workspace-limits.js';
import { looksBinary, splitLines } from './file-kind.js';
import { onPath } from './fs-errors.js';
import { compileGlob, matchGlob, type CompiledGlob } from './glob-match.js';
import { compileUserRegex, runRegexSearch, type LineHit } from './regex-search.js';
import { walkFiles, type WalkedFile } from './walk-files.js';

export interface GrepOptions {
  pattern: string;
  literal: boolean;
  caseInsensitive: boolean;
  /** Filters file names: a pattern without `/` matches the base name at any depth. */
  glob?: string;
  signal: AbortSignal;
}

interface Corpus {
  paths: string[];
  texts: string[];
  notes: string[];
}

const LIMITS = WORKSPACE_LIMITS.grep;

/** Searches text files below `start` (or `start` itself); one `path:line: text` line per match. */
export async function grepFiles(start: ResolvedWorkspacePath, options: GrepOptions): Promise<string> {
  const regex = options.literal ? undefined : compileUserRegex(options.pattern, options.caseInsensitive);
  const glob =
    options.glob === undefined
      ? undefined
      : compileGlob(options.glob, { basename: !options.glob.includes('/') });
  const corpus = await loadCorpus(await candidates(start, glob, options.signal));
  const hits = regex
    ? await runRegexSearch(
        { ...regex, texts: corpus.texts, maxMatches: LIMITS.maxMatches },
        LIMITS.regexBudgetMs,
        options.signal,
      )
    : literalHits(corpus.texts, options.pattern, options.caseInsensitive);
  const lines: string[] = [];
  const split = new Map<number, string[]>();
  for (const [file, line] of hits) {
    if (!split.has(file)) split.set(file, splitLines(corpus.texts[file]));
    const text = split.get(file)?.[line] ?? '';
    const shown = text.length > LIMITS.maxLineChars ? `${text.slice(0, LIMITS.maxLineChars)} …` : text;
    lines.push(`${corpus.paths[file]}:${line + 1}: ${shown}`);
  }
  if (lines.length === 0) lines.push(`No matches found (${corpus.paths.length} files searched).`);
  if (hits.length >= LIMITS.maxMatches)
    lines.push(`[stopped at ${LIMITS.maxMatches} matches; narrow the search]`);
  return [...lines, ...corpus.notes].join('\n');
}

function literalHits(texts: string[], needle: string, caseInsensitive: boolean): LineHit[] {
  const wanted = caseInsensitive ? needle.toLowerCase() : needle;
  const hits: LineHit[] = [];
  for (let file = 0; file < texts.length; file++) {
    const lines = splitLines(texts[file]);
    for (let line = 0; line < lines.length; line++) {
      const text = caseInsensitive ? lines[line].toLowerCase() : lines[line];
      if (!text.includes(wanted)) continue;
      hits.push([file, line]);
      if (hits.length >= LIMITS.maxMatches) return hits;
    }
  }
  return hits;
}

async function candidates(
  start: ResolvedWorkspacePath,
  glob: CompiledGlob | undefined,
  signal: AbortSignal,
): Promise<{
  files: WalkedFile[];
  notes: string[];
}> {
  const info = await onPath(start.virtualPath, () => stat(start.realPath));
  if (!info.isDirectory()) {
    const self = {
      relativePath: start.virtualPath,
      virtualPath: start.virtualPath,
      realPath: start.realPath,
    };
    return { files: info.isFile() ? [self] : [], notes: [] };
  }
  const walk = await walkFiles(start);
  const notes = walk.truncated
    ? [`[file listing stopped after ${WORKSPACE_LIMITS.walk.maxEntries} entries]`]
    : [];
  if (glob === undefined) return { files: walk.files, notes };
  const hits = await matchGlob(
    glob,
    walk.files.map((file) => file.relativePath),
    signal,
  );
  return { files: hits.map((index) => walk.files[index]), notes };
}

/** Reads the candidates' text within the byte and file budgets; binary and oversized files are skipped. */
async function loadCorpus({ files, notes }: { files: WalkedFile[]; notes: string[] }): Promise<Corpus> {
  const corpus: Corpus = { paths: [], texts: [], notes: [...notes] };
  let totalBytes = 0;
  let large = 0;
  for (const file of files) {
    if (corpus.paths.length >= LIMITS.maxFiles || totalBytes >= LIMITS.maxTotalBytes) {
      corpus.notes.push(
        `[search stopped after ${corpus.paths.length} files / ${totalBytes} bytes; narrow the path]`,
      );
      break;
    }
    const info = await stat(file.realPath).catch(() => undefined);
    if (info === undefined || !info.isFile()) continue;
    if (info.size > LIMITS.maxFileBytes) {
      large += 1;
      continue;
    }
    const content = await readFile(file.realPath).catch(() => undefined);
    if (content === undefined || looksBinary(content.subarray(0, WORKSPACE_LIMITS.binarySniffBytes)))
      continue;
    totalBytes += content.length;
    corpus.paths.push(file.virtualPath);
    corpus.texts.push(content.toString('utf8'));
  }
  if (large > 0) corpus.notes.push(`[${large} files larger than ${LIMITS.maxFileBytes} bytes were skipped]`);
  return corpus;
}
