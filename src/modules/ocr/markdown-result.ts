/** How much of the document the tool result shows; the rest is read from the written file. */
export const PREVIEW_CHARS = 1200;

/** Longer lines are broken (at a blank near the end when there is one), so no line holds a whole file. */
export const MAX_LINE_CHARS = 10_000;

const isBlank = (code: number) => code === 0x20 || code === 0x09 || code === 0xa0;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

function trimBlankEnd(line: string): string {
  let end = line.length;
  while (end > 0 && isBlank(line.charCodeAt(end - 1))) end -= 1;
  return end === line.length ? line : line.slice(0, end);
}

/**
 * A line cut into pieces of at most `MAX_LINE_CHARS`: each piece ends after the last blank of its second
 * half, or at the limit (never inside a surrogate pair) when that half has none. Linear: each piece looks
 * at no more than half the limit and moves on by at least as much.
 */
function capLine(line: string, pieces: string[]): void {
  let start = 0;
  while (line.length - start > MAX_LINE_CHARS) {
    const limit = start + MAX_LINE_CHARS;
    let cut = limit;
    while (cut > start + MAX_LINE_CHARS / 2 && !isBlank(line.charCodeAt(cut - 1))) cut -= 1;
    if (cut === start + MAX_LINE_CHARS / 2)
      cut = isHighSurrogate(line.charCodeAt(limit - 1)) ? limit - 1 : limit;
    pieces.push(line.slice(start, cut));
    start = cut;
  }
  pieces.push(start === 0 ? line : line.slice(start));
}

/**
 * Unix line ends, no trailing blanks on lines, lines of at most `MAX_LINE_CHARS`, at most one empty line
 * in a row, trimmed. One pass over the text, with no regular expression that could backtrack.
 */
export function normalizeMarkdown(text: string): string {
  const lines: string[] = [];
  const pieces: string[] = [];
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    pieces.length = 0;
    capLine(line, pieces);
    for (const piece of pieces) {
      const kept = trimBlankEnd(piece);
      if (kept !== '' || (lines.length > 0 && lines[lines.length - 1] !== '')) lines.push(kept);
    }
  }
  return lines.join('\n').trim();
}

export interface MarkdownSummary {
  /** Length in Unicode code points (a Chinese character or an emoji counts once). */
  charCount: number;
  preview: string;
  /** The preview is shorter than the document. */
  truncated: boolean;
}

/** Counts code points and cuts the preview on a code point boundary, never inside a surrogate pair. */
export function summarizeMarkdown(markdown: string, previewChars = PREVIEW_CHARS): MarkdownSummary {
  let chars = 0;
  let offset = 0;
  let previewEnd = markdown.length;
  for (const character of markdown) {
    if (chars === previewChars) previewEnd = offset;
    chars += 1;
    offset += character.length;
  }
  return {
    charCount: chars,
    preview: markdown.slice(0, previewEnd),
    truncated: chars > previewChars,
  };
}
