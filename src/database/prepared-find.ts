import type { ObjectLiteral, Repository } from 'typeorm';
import type { EntityMetadata } from 'typeorm/metadata/EntityMetadata.js';
import { preparedQueryIn } from './prepared-query.js';

/** `<every column AS its property>` of an entity, built once. */
const columnLists = new WeakMap<EntityMetadata, string>();

/**
 * Every column of `repository`'s entity aliased to its property (`"thread_id" AS "threadId", …`): a
 * select list or a RETURNING clause whose rows `hydrate` makes entities. Refuses an entity TypeORM
 * would transform on the way.
 */
export function entityColumns(repository: Repository<ObjectLiteral>): string {
  const { metadata } = repository;
  let list = columnLists.get(metadata);
  if (list !== undefined) return list;
  // What TypeORM would change on the way from the row to the entity is not loaded this way.
  const hydrated = metadata.columns.find(
    (column) =>
      column.transformer !== undefined ||
      column.embeddedMetadata !== undefined ||
      column.relationMetadata !== undefined ||
      ['simple-json', 'simple-array', 'simple-enum'].includes(String(column.type)),
  );
  if (hydrated !== undefined)
    throw new Error(`${metadata.name}.${hydrated.propertyName} needs TypeORM's hydration`);
  list = metadata.columns.map((column) => `"${column.databaseName}" AS "${column.propertyName}"`).join(', ');
  columnLists.set(metadata, list);
  return list;
}

/** An entity of `repository` from a row read with `entityColumns`. */
export function hydrate<T extends ObjectLiteral>(repository: Repository<T>, row: Partial<T>): T {
  return Object.assign(repository.create(), row);
}

/**
 * `repository.findOneBy(where)` for an entity of plain columns, as a prepared statement: the row is
 * read with every column aliased to its property (PostgreSQL's parser and planner run once per
 * connection, TypeORM builds no query). For lookups on a run's hot path; `where` holds property names
 * with non-null values, in a fixed order per call site.
 */
export async function preparedFindOneBy<T extends ObjectLiteral>(
  repository: Repository<T>,
  where: Partial<Record<keyof T & string, string | number>>,
): Promise<T | null> {
  const { metadata } = repository;
  const entries = Object.entries(where) as [string, string | number][];
  const conditions = entries.map(([property], index) => {
    const column = metadata.findColumnWithPropertyName(property);
    if (column === undefined) throw new Error(`${metadata.name} has no column ${property}`);
    return `"${column.databaseName}" = $${index + 1}`;
  });
  const text = `SELECT ${entityColumns(repository)} FROM "${metadata.tableName}" WHERE ${conditions.join(' AND ')} LIMIT 1`;
  // A repository of a transaction's manager reads in that transaction.
  const [row] = await preparedQueryIn<T>(
    repository.manager,
    text,
    entries.map(([, value]) => value),
  );
  return row === undefined ? null : hydrate(repository, row);
}

/** `preparedFindOneBy` for a row that must be there (just written by the caller). */
export async function preparedFindOneByOrFail<T extends ObjectLiteral>(
  repository: Repository<T>,
  where: Partial<Record<keyof T & string, string | number>>,
): Promise<T> {
  const found = await preparedFindOneBy(repository, where);
  if (found === null) throw new Error(`${repository.metadata.name} ${JSON.stringify(where)} not found`);
  return found;
}
