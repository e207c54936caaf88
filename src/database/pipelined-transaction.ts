import pg from 'pg';
import { statementName } from './prepared-query.js';

/**
 * A transaction on one pooled connection whose first statement travels with its BEGIN and whose last
 * with its COMMIT (one simple-protocol message each: two round trips fewer than `dataSource.transaction`
 * with the same statements). Those two statements take no parameters, so values go in as literals
 * (`PipelinedTransaction.literal`, `integer`); the statements between are prepared, with parameters.
 * A statement in its own round trip after a lock sees what committed while it waited (READ COMMITTED
 * takes a snapshot per statement), which is why the first is the place for a lock.
 */
export class PipelinedTransaction {
  private done = false;

  private constructor(private readonly client: pg.PoolClient) {}

  /** Checks out a connection of `pool` and runs `BEGIN; <first>` on it. */
  static async begin(pool: pg.Pool, first: string): Promise<PipelinedTransaction> {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${first}`);
    } catch (error) {
      await rollBackAndRelease(client);
      throw error;
    }
    return new PipelinedTransaction(client);
  }

  /** A string as an SQL literal. */
  static literal(value: string): string {
    return pg.escapeLiteral(value);
  }

  /** An integer as an SQL literal (anything else is a programming error). */
  static integer(value: number): string {
    if (!Number.isSafeInteger(value)) throw new Error(`not a safe integer: ${value}`);
    return String(value);
  }

  /** A prepared statement inside the transaction. */
  async query<T extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<T[]> {
    const result = await this.client.query<T>({ name: statementName(text), text, values });
    return result.rows;
  }

  /**
   * Runs `<last>; COMMIT` (or just COMMIT) and gives the connection back; rolls back if that fails. The
   * rows `last` returned.
   */
  async commit<T extends pg.QueryResultRow = pg.QueryResultRow>(last?: string): Promise<T[]> {
    this.done = true;
    let rows: T[] = [];
    try {
      if (last === undefined) await this.client.query('COMMIT');
      else rows = multiStatementRows<T>(await this.client.query(`${last}; COMMIT`))[0];
    } catch (error) {
      await rollBackAndRelease(this.client);
      throw error;
    }
    this.client.release();
    return rows;
  }

  /** Rolls back and gives the connection back; nothing once committed. */
  async rollback(): Promise<void> {
    if (this.done) return;
    this.done = true;
    await rollBackAndRelease(this.client);
  }
}

/** The rows of each statement of a simple-protocol message (pg gives one result, or an array of them). */
export function multiStatementRows<T extends pg.QueryResultRow>(result: unknown): T[][] {
  const results = (Array.isArray(result) ? result : [result]) as pg.QueryResult<T>[];
  return results.map((each) => each.rows);
}

/** A connection whose rollback fails is destroyed rather than handed back in an unknown state. */
async function rollBackAndRelease(client: pg.PoolClient): Promise<void> {
  try {
    await client.query('ROLLBACK');
  } catch (error) {
    client.release(error instanceof Error ? error : new Error(String(error)));
    return;
  }
  client.release();
}
