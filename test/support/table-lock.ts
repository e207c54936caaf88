import { Client } from 'pg';
import { databaseUrl } from './test-env';

/**
 * Holds an ACCESS EXCLUSIVE lock on one table over a direct connection (not through any relay), so a
 * test can park the application's next query on that table and cut its connection while it waits.
 */
export class TableLock {
  private constructor(
    private readonly client: Client,
    private readonly table: string,
  ) {}

  static async take(databaseName: string, table: string): Promise<TableLock> {
    const client = new Client({ connectionString: databaseUrl(databaseName) });
    await client.connect();
    await client.query('BEGIN');
    await client.query(`LOCK TABLE "${table}" IN ACCESS EXCLUSIVE MODE`);
    return new TableLock(client, table);
  }

  /** Resolves once another session waits for this table (the parked query); pg_locks is live. */
  async blocked(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const { rows } = await this.client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks WHERE NOT granted AND relation = to_regclass($1)`,
        [this.table],
      );
      if (rows[0].n > 0) return;
      if (Date.now() > deadline) throw new Error('no query is waiting for the lock');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  async release(): Promise<void> {
    await this.client.query('ROLLBACK').catch(() => undefined);
    await this.client.end();
  }
}
