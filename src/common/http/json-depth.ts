/**
 * How deep a JSON body may nest arrays and objects. class-transformer recurses once per level inside the
 * validation pipe, so a body of a few hundred KB of `[[[[…` overflowed the stack (a 500) on every route;
 * no request of this API needs more than a handful of levels.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether UTF-8 JSON text nests deeper than `maxDepth`, in one pass without parsing: string contents
 * (escapes included) are skipped. Byte-wise is exact for UTF-8, whose multibyte sequences never contain
 * ASCII bytes. Malformed text is left to the parser to refuse.
 */
export function jsonNestsDeeperThan(utf8: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < utf8.length; i++) {
    const byte = utf8[i];
    if (inString) {
      if (byte === BACKSLASH) i++;
      else if (byte === QUOTE) inString = false;
    } else if (byte === QUOTE) {
      inString = true;
    } else if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
