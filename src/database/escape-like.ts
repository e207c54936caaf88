/** `%`, `_` and the escape character itself taken literally in a `LIKE`/`ILIKE … ESCAPE '\'` pattern. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
