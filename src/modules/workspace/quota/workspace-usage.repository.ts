import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { preparedQueryIn } from '../../../database/prepared-query.js';

export interface StoredUsage {
  usedBytes: number;
  /** Measured within the freshness bound asked for (judged by PostgreSQL's clock, shared by all processes). */
  fresh: boolean;
}

/** The `workspace_usage` row of one user; every method runs inside the caller's transaction. */
@Injectable()
export class WorkspaceUsageRepository {
  /** Serializes quota-checked writes of one user across every API and worker process until commit. */
  async lockUser(manager: EntityManager, userId: string): Promise<void> {
    await preparedQueryIn(manager, `SELECT pg_advisory_xact_lock(hashtext('workspace_quota:' || $1))`, [
      userId,
    ]);
  }

  async read(manager: EntityManager, userId: string, freshForMs: number): Promise<StoredUsage | null> {
    const rows = await preparedQueryIn<{ used_bytes: string; fresh: boolean }>(
      manager,
      `SELECT used_bytes, measured_at > now() - make_interval(secs => $2::double precision / 1000) AS fresh
         FROM workspace_usage WHERE user_id = $1`,
      [userId, freshForMs],
    );
    const row = rows[0];
    return row === undefined ? null : { usedBytes: Number(row.used_bytes), fresh: row.fresh };
  }

  async saveMeasurement(manager: EntityManager, userId: string, usedBytes: number): Promise<void> {
    await preparedQueryIn(
      manager,
      `INSERT INTO workspace_usage (user_id, used_bytes, measured_at) VALUES ($1, $2, now())
       ON CONFLICT (user_id) DO UPDATE SET used_bytes = EXCLUDED.used_bytes, measured_at = now()`,
      [userId, usedBytes],
    );
  }

  /** Adds a write's growth (negative when it shrank a file); a user never measured has no row to keep. */
  async addGrowth(manager: EntityManager, userId: string, bytes: number): Promise<void> {
    await preparedQueryIn(
      manager,
      `UPDATE workspace_usage SET used_bytes = GREATEST(0, used_bytes + $2) WHERE user_id = $1`,
      [userId, bytes],
    );
  }
}
