import type { FieldError } from '../errors/common.errors.js';

/**
 * NUL, which PostgreSQL refuses in text and jsonb, and unpaired surrogates, which have no UTF-8 form
 * (jsonb refuses their escapes, text would silently store U+FFFD). No field of this API can keep either.
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const MESSAGE = 'must not contain NUL characters or unpaired surrogates';

export const isUnstorableText = (text: string): boolean => UNSTORABLE.test(text);

/** The error entry for a field (a query key, `path`) holding such text. */
export const unstorableField = (field: string): FieldError => ({ field, messages: [MESSAGE] });

/** The paths (`config.tools.0`) of every string and key in a parsed JSON body that PostgreSQL cannot store. */
export function unstorableTextFields(value: unknown, path = ''): FieldError[] {
  const here = path === '' ? 'body' : path;
  if (typeof value === 'string') return UNSTORABLE.test(value) ? [{ field: here, messages: [MESSAGE] }] : [];
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => {
    const child = path === '' ? key : `${path}.${key}`;
    const keyError = UNSTORABLE.test(key) ? [{ field: here, messages: [`keys ${MESSAGE}`] }] : [];
    return [...keyError, ...unstorableTextFields(item, child)];
  });
}
