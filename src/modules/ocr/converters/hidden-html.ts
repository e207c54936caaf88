import { ForwardSearch } from './forward-search.js';

const HIDDEN_ELEMENTS = ['script', 'style', 'head', 'noscript', 'template'] as const;

const isWordChar = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f;

const startsWithAt = (text: string, prefix: string, at: number) =>
  text.length - at >= prefix.length && text.slice(at, at + prefix.length).toLowerCase() === prefix;

/** `</name\s*>` from `position` on, case-insensitive; "none" is remembered, so each name costs one pass. */
class ClosingTags {
  private readonly patterns = new Map<string, RegExp>();
  private readonly noneFrom = new Map<string, number>();

  constructor(private readonly text: string) {}

  /** The end of the first closing tag of `name` at or after `position`, or -1. */
  endAfter(name: string, position: number): number {
    const none = this.noneFrom.get(name);
    if (none !== undefined && none <= position) return -1;
    let pattern = this.patterns.get(name);
    if (pattern === undefined) {
      pattern = new RegExp(`</${name}\\s*>`, 'gi');
      this.patterns.set(name, pattern);
    }
    pattern.lastIndex = position;
    const match = pattern.exec(this.text);
    if (match === null) {
      this.noneFrom.set(name, position);
      return -1;
    }
    return match.index + match[0].length;
  }
}

/**
 * What a browser would not show of a page: scripts, styles, the head, noscript and template elements,
 * comments, and `<!…>` declarations (the doctype), removed as the expression
 * `<(script|style|head|noscript|template)\b[^>]*>[\s\S]*?<\/\1\s*>|<!--[\s\S]*?-->|<![^>]*>` (flags `gi`)
 * would, in one forward pass: that expression rescans to the end of the text for every unclosed opener.
 */
export function stripHiddenHtml(html: string): string {
  const tagEnd = new ForwardSearch(html, '>');
  const commentEnd = new ForwardSearch(html, '-->');
  const closing = new ClosingTags(html);
  const kept: string[] = [];
  let copied = 0;
  let at = html.indexOf('<');
  while (at !== -1) {
    const end = hiddenEnd(html, at, tagEnd, commentEnd, closing);
    if (end === -1) {
      at = html.indexOf('<', at + 1);
      continue;
    }
    kept.push(html.slice(copied, at));
    copied = end;
    at = html.indexOf('<', end);
  }
  kept.push(html.slice(copied));
  return kept.join('');
}

/** Where the hidden construct opening at `at` ends, or -1 when none opens there. */
function hiddenEnd(
  html: string,
  at: number,
  tagEnd: ForwardSearch,
  commentEnd: ForwardSearch,
  closing: ClosingTags,
): number {
  for (const name of HIDDEN_ELEMENTS) {
    const after = at + 1 + name.length;
    if (!startsWithAt(html, name, at + 1) || (after < html.length && isWordChar(html.charCodeAt(after)))) {
      continue;
    }
    const open = tagEnd.next(after);
    return open === -1 ? -1 : closing.endAfter(name, open + 1);
  }
  if (html[at + 1] !== '!') return -1;
  if (html.startsWith('<!--', at)) {
    const close = commentEnd.next(at + 4);
    if (close !== -1) return close + 3;
  }
  const close = tagEnd.next(at + 2);
  return close === -1 ? -1 : close + 1;
}
