import pg from 'pg';
import { preparedQuery, statementName } from '../../../src/database/prepared-query';
import { createTestDatabase } from '../../support/test-database';
import { databaseUrl } from '../../support/test-env';

describe('preparedQuery', () => {
  let pool: pg.Pool;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    // One connection: what it prepared is visible to the next statement.
    pool = new pg.Pool({ connectionString: databaseUrl(database.name), max: 1 });
    pool.on('connect', (client) => client.on('error', () => undefined));
    pool.on('error', () => undefined); // an idle client's error is re-emitted by the pool
  });

  afterAll(async () => {
    await pool.end();
    await drop();
  });

  it('names a statement by its text, the same in every process, within PostgreSQL’s 63 bytes', () => {
    const text = 'SELECT $1::int + 1 AS n';
    expect(statementName(text)).toBe(statementName(`${text}`));
    expect(statementName(text)).not.toBe(statementName('SELECT $1::int + 2 AS n'));
    expect(statementName(text)).toMatch(/^p_[0-9a-f]{24}$/);
  });

  it('prepares a statement once per connection and runs it with new values each time', async () => {
    const text = 'SELECT $1::int + 1 AS n';
    expect(await preparedQuery<{ n: number }>(pool, text, [1])).toEqual([{ n: 2 }]);
    expect(await preparedQuery<{ n: number }>(pool, text, [41])).toEqual([{ n: 42 }]);
    const { rows } = await pool.query<{ name: string; statement: string }>(
      'SELECT name, statement FROM pg_prepared_statements',
    );
    expect(rows).toEqual([{ name: statementName(text), statement: text }]);
  });
});
