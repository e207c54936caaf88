import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SkillsErrors } from '../skills.errors.js';

export interface DraftRow {
  id: string;
  ownerId: string;
  bytes: number;
  expiresAt: Date;
}

export interface DraftLimits {
  count: number;
  bytes: number;
}

/** The rows of `skill_drafts`: who holds which draft until when, and how many bytes it keeps. */
@Injectable()
export class SkillDraftsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** What `ownerId`'s drafts that have not expired hold now. */
  usage(ownerId: string): Promise<{ count: number; bytes: number }> {
    return usageOf(this.dataSource.manager, ownerId);
  }

  /**
   * Adds `draft` within `limits` (409 `skills.draft_limit_reached` past one), under a lock on its owner so
   * that parallel uploads cannot both take the last place; `store` runs before the commit, and its
   * failure leaves no row.
   */
  async insertWithin(draft: DraftRow, limits: DraftLimits, store: () => Promise<void>): Promise<void> {
    await this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('skill-drafts:' || $1))`, [draft.ownerId]);
      checkLimits(await usageOf(manager, draft.ownerId), draft.bytes, limits);
      await manager.query(
        `INSERT INTO skill_drafts (id, owner_id, bytes, expires_at) VALUES ($1, $2, $3, $4)`,
        [draft.id, draft.ownerId, draft.bytes, draft.expiresAt],
      );
      await store();
    });
  }

  /** The draft's owner while it has not expired; null otherwise. */
  async findLiveOwner(id: string): Promise<string | null> {
    const [row] = await this.dataSource.query<{ owner_id: string }[]>(
      `SELECT owner_id FROM skill_drafts WHERE id = $1 AND expires_at > now()`,
      [id],
    );
    return row?.owner_id ?? null;
  }

  async delete(id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM skill_drafts WHERE id = $1`, [id]);
  }

  /** Deletes the rows expired at `now` and returns their ids. */
  async deleteExpired(now: Date): Promise<string[]> {
    // With RETURNING, a DELETE through `query` answers [rows, count].
    const [rows] = await this.dataSource.query<[{ id: string }[], number]>(
      `DELETE FROM skill_drafts WHERE expires_at <= $1 RETURNING id`,
      [now],
    );
    return rows.map((row) => row.id);
  }

  async allIds(): Promise<Set<string>> {
    const rows = await this.dataSource.query<{ id: string }[]>(`SELECT id FROM skill_drafts`);
    return new Set(rows.map((row) => row.id));
  }
}

async function usageOf(manager: EntityManager, ownerId: string): Promise<{ count: number; bytes: number }> {
  const [row] = await manager.query<{ count: number; bytes: string }[]>(
    `SELECT count(*)::int AS count, coalesce(sum(bytes), 0)::text AS bytes
       FROM skill_drafts WHERE owner_id = $1 AND expires_at > now()`,
    [ownerId],
  );
  return { count: row.count, bytes: Number(row.bytes) };
}

/** Refuses one more draft of `bytes` past either limit. */
export function checkLimits(
  used: { count: number; bytes: number },
  bytes: number,
  limits: DraftLimits,
): void {
  if (used.count >= limits.count) throw SkillsErrors.draftLimitReached('count', limits.count);
  if (used.bytes + bytes > limits.bytes) throw SkillsErrors.draftLimitReached('bytes', limits.bytes);
}
