import { WORKSPACE_LIMITS } from './workspace-limits.js';

const { maxLineChars } = WORKSPACE_LIMITS.read;

function hasLineLongerThan(text: string, chars: number): boolean {
  let start = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
    if (end - start > chars) return true;
    start = end + 1;
  }
  return text.length - start > chars;
}

/**
 * The text a large result is saved as. read_file cuts lines longer than `read.maxLineChars`, so a
 * JSON document on one long line (what most MCP servers and APIs return) is saved indented, one value
 * per line: the same document, readable back page by page. Any other text is saved as it came.
 */
export function largeResultLayout(text: string): string {
  if (!hasLineLongerThan(text, maxLineChars)) return text;
  const first = text.trimStart()[0];
  if (first !== '{' && first !== '[') return text;
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}
