/**
 * Hostile values for query strings and path segments, written as they go on the wire (already
 * percent-encoded, never re-encoded): text PostgreSQL cannot store, bytes that are not UTF-8, malformed
 * escapes, huge and numeric-looking values, and the shapes a query parser may turn into arrays or objects.
 */
export const HOSTILE_VALUES: [label: string, encoded: string][] = [
  ['NUL', '%00'],
  ['NUL inside', 'a%00b'],
  ['lone high surrogate (UTF-8 bytes)', '%ED%A0%80'],
  ['lone low surrogate (UTF-8 bytes)', 'x%ED%B0%80y'],
  ['overlong NUL', '%C0%80'],
  ['invalid byte', '%FF%FE'],
  ['malformed escape', '%ZZ'],
  ['lone percent', '%'],
  ['control characters', '%01%1F%7F'],
  ['line separators', '%E2%80%A8%E2%80%A9'],
  ['empty', ''],
  ['huge', 'x'.repeat(10_000)],
  ['400 digits', '9'.repeat(400)],
  ['1e400', '1e400'],
  ['2**64', '18446744073709551616'],
  ['-1', '-1'],
  ['-0', '-0'],
  ['1.5', '1.5'],
  ['NaN', 'NaN'],
  ['true', 'true'],
  ['null', 'null'],
  ['JSON array', '%5B%5D'],
  ['JSON object', '%7B%22a%22%3A1%7D'],
  ['path traversal', '..%2F..%2Fetc%2Fpasswd'],
  ['SQL quote', "'%3B--"],
  ['LIKE wildcards', '%25_%5C'],
  ['emoji', '%F0%9F%98%80'],
  ['uuid-like', '00000000-0000-0000-0000-000000000000'],
];

/** Query strings that a parser may turn into arrays, objects or prototype keys, for a field `key`. */
export function hostileQueryShapes(key: string): [label: string, query: string][] {
  return [
    ['repeated', `${key}=1&${key}=2`],
    ['repeated, one empty', `${key}=&${key}=x`],
    ['brackets', `${key}[]=1`],
    ['object brackets', `${key}[a]=b`],
    ['no value', key],
    ['__proto__', `__proto__=x&${key}=1`],
    ['__proto__ object', `__proto__[polluted]=yes`],
    ['constructor.prototype', `constructor[prototype][polluted]=yes`],
    ['toString', `toString=1`],
    ['NUL key', `a%00=1`],
    ['undeclared field', `undeclared_${key}=1`],
  ];
}
