import pg from 'pg';
import { PipelinedTransaction } from '../../../src/database/pipelined-transaction';
import { createTestDatabase } from '../../support/test-database';
import { databaseUrl } from '../../support/test-env';

const LOCK = `SELECT pg_advisory_xact_lock(hashtext('pipelined-test'))`;

describe('PipelinedTransaction', () => {
  let pool: pg.Pool;
  let observer: pg.Pool;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    // One connection: a connection not given back (or given back inside a transaction) shows at once.
    pool = new pg.Pool({ connectionString: databaseUrl(database.name), max: 1 });
    observer = new pg.Pool({ connectionString: databaseUrl(database.name), max: 2 });
    for (const p of [pool, observer]) {
      p.on('connect', (client) => client.on('error', () => undefined));
      p.on('error', () => undefined); // an idle client's error is re-emitted by the pool
    }
    await observer.query(`CREATE TABLE items (id int PRIMARY KEY, note text)`);
  });

  afterAll(async () => {
    await pool.end();
    await observer.end();
    await drop();
  });

  beforeEach(() => observer.query(`TRUNCATE items`));

  const notes = async () =>
    (await observer.query<{ id: number; note: string }>(`SELECT id, note FROM items ORDER BY id`)).rows;
  /** Whether the pool's connection is back, idle and outside any transaction (none left open on it). */
  const connectionIsFree = async () => {
    if (pool.idleCount !== 1) return false;
    const { rows } = await pool.query<{ outside: boolean }>(
      // Outside a transaction block, a statement's transaction starts with it.
      `SELECT now() = statement_timestamp() AND pg_current_xact_id_if_assigned() IS NULL AS outside`,
    );
    return rows[0].outside;
  };

  it('holds what its first statement took until commit, and commits its last statement with the rest', async () => {
    const tx = await PipelinedTransaction.begin(pool, LOCK);
    // The lock is held: another session cannot take it while the transaction is open.
    const other = await observer.connect();
    try {
      await other.query(`BEGIN`);
      const tried = await other.query<{ got: boolean }>(
        `SELECT pg_try_advisory_xact_lock(hashtext('pipelined-test')) AS got`,
      );
      expect(tried.rows[0].got).toBe(false);
      await other.query(`ROLLBACK`);

      expect(await tx.query(`INSERT INTO items VALUES ($1, $2) RETURNING id`, [1, 'middle'])).toEqual([
        { id: 1 },
      ]);
      expect(await notes()).toEqual([]); // not committed yet
      await tx.commit(`INSERT INTO items VALUES (2, ${PipelinedTransaction.literal("it's last")})`);
      expect(await notes()).toEqual([
        { id: 1, note: 'middle' },
        { id: 2, note: "it's last" },
      ]);
      // Released with the commit.
      await other.query(`BEGIN`);
      const again = await other.query<{ got: boolean }>(
        `SELECT pg_try_advisory_xact_lock(hashtext('pipelined-test')) AS got`,
      );
      expect(again.rows[0].got).toBe(true);
      await other.query(`ROLLBACK`);
    } finally {
      other.release();
    }
    expect(await connectionIsFree()).toBe(true);
    await tx.rollback(); // nothing once committed
    expect(await notes()).toHaveLength(2);
  });

  it('rolls everything back when its last statement fails, and gives the connection back clean', async () => {
    const tx = await PipelinedTransaction.begin(pool, LOCK);
    await tx.query(`INSERT INTO items VALUES ($1, $2)`, [1, 'kept?']);
    await expect(tx.commit(`INSERT INTO items VALUES (1, 'duplicate')`)).rejects.toThrow(/duplicate key/);
    expect(await notes()).toEqual([]);
    expect(await connectionIsFree()).toBe(true);
    await tx.rollback();
  });

  it('rolls back on rollback() and frees the connection when its first statement fails', async () => {
    const tx = await PipelinedTransaction.begin(pool, LOCK);
    await tx.query(`INSERT INTO items VALUES ($1, $2)`, [1, 'discarded']);
    await tx.rollback();
    expect(await notes()).toEqual([]);
    expect(await connectionIsFree()).toBe(true);

    await expect(PipelinedTransaction.begin(pool, `SELECT * FROM no_such_table`)).rejects.toThrow(
      /no_such_table/,
    );
    expect(await connectionIsFree()).toBe(true);
  });

  it('writes values into its unparameterized statements only as literals', () => {
    expect(PipelinedTransaction.literal(`a'b\\c`)).toBe(` E'a''b\\\\c'`);
    expect(PipelinedTransaction.integer(-42)).toBe('-42');
    expect(() => PipelinedTransaction.integer(1.5)).toThrow('not a safe integer');
    expect(() => PipelinedTransaction.integer(Number.NaN)).toThrow('not a safe integer');
  });
});
