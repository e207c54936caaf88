import { CommonErrors } from '../errors/common.errors.js';

/**
 * Keyset cursors over `(created_at, id)`: opaque to clients, stable under inserts.
 */
export interface KeysetPosition {
  createdAt: Date;
  id: string;
}

export function encodeCursor(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.toISOString(), position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): KeysetPosition {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const date = new Date(String(createdAt));
    if (typeof id !== 'string' || Number.isNaN(date.getTime())) throw new Error('bad cursor');
    return { createdAt: date, id };
  } catch {
    throw CommonErrors.validationFailed([{ field: 'cursor', messages: ['cursor is not valid'] }]);
  }
}

export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Builds a page from `limit + 1` rows fetched in keyset order. */
export function toPage<R extends KeysetPosition, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const hasMore = rows.length > limit;
  const items = hasMore ? rows.slice(0, limit) : rows;
  const last = items.at(-1);
  return { items: items.map(map), next_cursor: hasMore && last ? encodeCursor(last) : null };
}
