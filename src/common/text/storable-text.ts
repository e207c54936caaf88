// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text PostgreSQL can store in text and jsonb: NUL (refused by both) and unpaired surrogates (no UTF-8
 * form; jsonb refuses their escapes) become U+FFFD, the replacement character. For text the service
 * receives from outside and must keep (a tool's result, a model's reply), where refusing is no option.
 */
export function storableText(text: string): string {
  UNSTORABLE.lastIndex = 0;
  return UNSTORABLE.test(text) ? text.replace(UNSTORABLE, '\uFFFD') : text;
}

/** `storableText` over every string and key of a JSON value. */
export function storableJson<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)]),
  ) as T;
}
