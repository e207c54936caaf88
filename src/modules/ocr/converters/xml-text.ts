import { ForwardSearch } from './forward-search.js';

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/** Decodes the five XML entities and numeric character references of element text or an attribute. */
export function decodeXmlText(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity: string, body: string) => {
    if (body.startsWith('#')) {
      const code =
        body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[body] ?? entity;
  });
}

const isAttributeNameChar = (code: number) =>
  (code >= 0x30 && code <= 0x39) ||
  (code >= 0x41 && code <= 0x5a) ||
  (code >= 0x61 && code <= 0x7a) ||
  code === 0x5f ||
  code === 0x3a ||
  code === 0x2e ||
  code === 0x2d;

const isSpace = (character: string | undefined) => character !== undefined && /^\s$/.test(character);

/**
 * The attributes of one start tag, by qualified name (`r:id`, `Target`): what
 * `/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g` finds, in one forward pass (that expression retries
 * every suffix of a long name, and rescans to the end for every unclosed quote).
 */
export function attributesOf(tag: string): Map<string, string> {
  const attributes = new Map<string, string>();
  const quotes = { '"': new ForwardSearch(tag, '"'), "'": new ForwardSearch(tag, "'") };
  let at = 0;
  while (at < tag.length) {
    if (!isAttributeNameChar(tag.charCodeAt(at))) {
      at += 1;
      continue;
    }
    const nameStart = at;
    while (at < tag.length && isAttributeNameChar(tag.charCodeAt(at))) at += 1;
    const nameEnd = at;
    let next = nameEnd;
    while (isSpace(tag[next])) next += 1;
    if (tag[next] !== '=') continue;
    next += 1;
    while (isSpace(tag[next])) next += 1;
    const quote = tag[next];
    if (quote !== '"' && quote !== "'") continue;
    const close = quotes[quote].next(next + 1);
    if (close === -1) continue;
    attributes.set(tag.slice(nameStart, nameEnd), decodeXmlText(tag.slice(next + 1, close)));
    at = close + 1;
  }
  return attributes;
}
