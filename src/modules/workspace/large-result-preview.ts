import { WORKSPACE_LIMITS } from './workspace-limits.js';

export interface SavedResult {
  /** Virtual path of the saved file. */
  path: string;
  /** UTF-8 bytes of the saved file. */
  bytes: number;
  /** TOOL_RESULT_INLINE_CHARS: the preview's head and tail together stay below it. */
  inlineChars: number;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The first `chars` characters, one fewer rather than half a surrogate pair. */
function headOf(text: string, chars: number): string {
  const end = chars > 0 && isHighSurrogate(text.charCodeAt(chars - 1)) ? chars - 1 : chars;
  return text.slice(0, end);
}

/** The last `chars` characters, one fewer rather than half a surrogate pair. */
function tailOf(text: string, chars: number): string {
  if (chars <= 0) return '';
  const start = text.length - chars;
  return text.slice(isLowSurrogate(text.charCodeAt(start)) ? start + 1 : start);
}

/** Lines as read_file numbers them: a final newline ends the last line rather than starting one. */
function lineCount(text: string): number {
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines += 1;
  return text.endsWith('\n') ? lines - 1 : lines;
}

/**
 * What the model (and the `tool_result` event) gets instead of an oversized result: its size, where
 * the full text is and how to read it, then its head and its tail.
 */
export function largeResultPreview(text: string, saved: SavedResult): string {
  const headChars = Math.min(WORKSPACE_LIMITS.largeResult.headChars, Math.floor(saved.inlineChars / 2));
  const tailChars = Math.min(WORKSPACE_LIMITS.largeResult.tailChars, Math.floor(saved.inlineChars / 4));
  const head = headOf(text, headChars);
  const tail = tailOf(text, tailChars);
  const omitted = text.length - head.length - tail.length;
  return (
    `[This result is too large to show in full: ${text.length} characters (${saved.bytes} bytes, ` +
    `${lineCount(text)} lines). The full text was saved to ${saved.path}. Read the rest with read_file ` +
    '(offset and limit count lines) or search it with grep. Its beginning and its end follow.]\n\n' +
    `${head}\n\n[… ${omitted} characters not shown …]\n\n${tail}`
  );
}
