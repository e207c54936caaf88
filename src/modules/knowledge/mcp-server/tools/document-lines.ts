import { truncate } from '../../../../common/text/truncate.js';
import { KB_TOOL_LIMITS } from './kb-tool-schemas.js';

/** A document's lines as the tools number them (1-based): `\n` splits, a trailing `\r` is dropped. */
export function documentLines(markdown: string): string[] {
  const lines = markdown.split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** One line as shown to the model: its number, a tab, its text (cut when very long). */
export function numberedLine(lineNumber: number, text: string): string {
  return `${lineNumber}\t${truncate(text, KB_TOOL_LIMITS.lineChars)}`;
}

export interface LineWindow {
  start_line: number;
  end_line: number;
  /** The matching lines inside the window (1-based). */
  match_lines: number[];
  content: string;
}

/**
 * Windows of `size` lines centred on each matching line (0-based indexes in, 1-based numbers out);
 * overlapping or touching windows merge. At most `maxWindows`; `hasMore` tells whether matches were left.
 */
export function matchWindows(
  lines: readonly string[],
  matches: readonly number[],
  size: number,
  maxWindows: number,
): { windows: LineWindow[]; hasMore: boolean } {
  const before = Math.floor((size - 1) / 2);
  const windows: { start: number; end: number; matches: number[] }[] = [];
  let hasMore = false;
  for (const match of matches) {
    const start = Math.max(0, match - before);
    const end = Math.min(lines.length - 1, start + size - 1);
    const last = windows[windows.length - 1];
    if (last !== undefined && start <= last.end + 1) {
      last.end = Math.max(last.end, end);
      last.matches.push(match);
      continue;
    }
    if (windows.length === maxWindows) {
      hasMore = true;
      break;
    }
    windows.push({ start, end, matches: [match] });
  }
  return {
    hasMore,
    windows: windows.map((w) => ({
      start_line: w.start + 1,
      end_line: w.end + 1,
      match_lines: w.matches.map((m) => m + 1),
      content: lines
        .slice(w.start, w.end + 1)
        .map((text, i) => numberedLine(w.start + i + 1, text))
        .join('\n'),
    })),
  };
}

/** Literal search: the 0-based indexes of lines containing any of `patterns`. */
export function literalMatches(
  lines: readonly string[],
  patterns: readonly string[],
  caseSensitive: boolean,
): number[] {
  const needles = caseSensitive ? patterns : patterns.map((p) => p.toLowerCase());
  const hits: number[] = [];
  lines.forEach((line, index) => {
    const haystack = caseSensitive ? line : line.toLowerCase();
    if (needles.some((needle) => haystack.includes(needle))) hits.push(index);
  });
  return hits;
}
