import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import type { KeysetPosition } from './cursor.js';

/**
 * Newest-first keyset pagination over `(created_at, id)`. Cursors carry milliseconds (JavaScript
 * dates), so ordering and comparison use the timestamp truncated to milliseconds: no row is skipped
 * or repeated when several share a millisecond. Fetches `limit + 1` rows (see `toPage`).
 */
export function newestFirstPage<T extends ObjectLiteral>(
  query: SelectQueryBuilder<T>,
  alias: string,
  limit: number,
  after: KeysetPosition | null,
): SelectQueryBuilder<T> {
  const createdAt = `date_trunc('milliseconds', ${alias}.created_at)`;
  query
    .orderBy(createdAt, 'DESC')
    .addOrderBy(`${alias}.id`, 'DESC')
    .limit(limit + 1);
  if (after !== null) {
    query.andWhere(`(${createdAt}, ${alias}.id) < (:keysetCreatedAt, :keysetId)`, {
      keysetCreatedAt: after.createdAt,
      keysetId: after.id,
    });
  }
  return query;
}
