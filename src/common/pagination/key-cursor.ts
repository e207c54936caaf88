import { CommonErrors } from '../errors/common.errors.js';
import type { Page } from './cursor.js';

/**
 * Keyset cursors for lists ordered by a unique tuple of strings, ascending (a slug, a tool name, a slug
 * and a rank), for the lists that have no `(created_at, id)` order: opaque to clients, stable under
 * inserts. Keys compare by UTF-16 code unit, which for the ASCII slugs and names these lists hold is the
 * order of PostgreSQL's `COLLATE "C"`.
 */
export type SortKey = readonly string[];

export function encodeKeyCursor(key: SortKey): string {
  return Buffer.from(JSON.stringify({ k: key })).toString('base64url');
}

/** The key a cursor carries; a cursor that is not one of `size` strings → 400 naming `cursor`. */
export function decodeKeyCursor(cursor: string, size: number): string[] {
  try {
    const { k } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { k?: unknown };
    if (!Array.isArray(k) || k.length !== size || !k.every((part) => typeof part === 'string')) {
      throw new Error('bad cursor');
    }
    return k;
  } catch {
    throw CommonErrors.validationFailed([{ field: 'cursor', messages: ['cursor is not valid'] }]);
  }
}

export function compareKeys(a: SortKey, b: SortKey): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

export interface KeyPageQuery {
  limit: number;
  cursor?: string;
}

/**
 * One page of rows in any order (a merge of sources, a remote server's list): sorted by `keyOf`, those
 * after the cursor's key, then `limit` of them. `fetched` may hold just the `limit + 1` first rows after
 * the cursor of each source, as long as no row that belongs on the page is missing.
 */
export function pageByKey<R, T>(
  fetched: readonly R[],
  query: KeyPageQuery,
  keyOf: (row: R) => SortKey,
  map: (row: R) => T,
  keySize: number,
): Page<T> {
  const after = query.cursor === undefined ? null : decodeKeyCursor(query.cursor, keySize);
  const rows = fetched
    .filter((row) => after === null || compareKeys(keyOf(row), after) > 0)
    .sort((a, b) => compareKeys(keyOf(a), keyOf(b)));
  const hasMore = rows.length > query.limit;
  const items = rows.slice(0, query.limit);
  const last = items.at(-1);
  return {
    items: items.map(map),
    next_cursor: hasMore && last !== undefined ? encodeKeyCursor(keyOf(last)) : null,
  };
}
