import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { PipelinedTransaction } from '../../../database/pipelined-transaction.js';
import { poolOf } from '../../../database/prepared-query.js';

export interface StoredUsage {
  usedBytes: number;
  /** Measured within the freshness bound asked for (judged by PostgreSQL's clock, shared by all processes). */
  fresh: boolean;
}

/**
 * The `workspace_usage` row of one user, inside a transaction that holds the user's quota lock: one
 * quota-checked write from begin to commit.
 */
export class UsageTransaction {
  constructor(
    private readonly transaction: PipelinedTransaction,
    private readonly userId: string,
  ) {}

  async read(freshForMs: number): Promise<StoredUsage | null> {
    const rows = await this.transaction.query<{ used_bytes: string; fresh: boolean }>(
      `SELECT used_bytes, measured_at > now() - make_interval(secs => $2::double precision / 1000) AS fresh
         FROM workspace_usage WHERE user_id = $1`,
      [this.userId, freshForMs],
    );
    const row = rows[0];
    return row === undefined ? null : { usedBytes: Number(row.used_bytes), fresh: row.fresh };
  }

  async saveMeasurement(usedBytes: number): Promise<void> {
    await this.transaction.query(
      `INSERT INTO workspace_usage (user_id, used_bytes, measured_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET used_bytes = EXCLUDED.used_bytes, measured_at = now()`,
      [this.userId, usedBytes],
    );
  }

  /**
   * Commits, adding the write's growth (negative when it shrank a file) in the same round trip; a user
   * never measured has no row to keep.
   */
  async commit(growth: number): Promise<void> {
    if (growth === 0) {
      await this.transaction.commit();
      return;
    }
    await this.transaction.commit(
      `UPDATE workspace_usage SET used_bytes = GREATEST(0, used_bytes + ${PipelinedTransaction.integer(growth)})
        WHERE user_id = ${PipelinedTransaction.literal(this.userId)}`,
    );
  }

  rollback(): Promise<void> {
    return this.transaction.rollback();
  }
}

@Injectable()
export class WorkspaceUsageRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Begins a transaction holding the user's quota lock, which serializes quota-checked writes of one
   * user across every API and worker process until it ends.
   */
  async begin(userId: string): Promise<UsageTransaction> {
    const transaction = await PipelinedTransaction.begin(
      poolOf(this.dataSource),
      `SELECT pg_advisory_xact_lock(hashtext('workspace_quota:' || ${PipelinedTransaction.literal(userId)}))`,
    );
    return new UsageTransaction(transaction, userId);
  }
}
