/** How much of the document the tool result shows; the rest is read from the written file. */
export const PREVIEW_CHARS = 1200;

/** Unix line ends, no trailing blanks on lines, at most one empty line in a row, trimmed. */
export function normalizeMarkdown(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
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
