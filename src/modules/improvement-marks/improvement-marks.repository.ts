import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { ImprovementMarkEntity } from './improvement-mark.entity.js';

export type NewImprovementMark = Pick<
  ImprovementMarkEntity,
  'runId' | 'toolCallId' | 'agentSlug' | 'userId' | 'threadId' | 'reason'
>;

/** List filters; every one is optional. `since` is inclusive, `until` exclusive. */
export interface MarkFilters {
  agentSlug?: string;
  userId?: string;
  runId?: string;
  since?: Date;
  until?: Date;
}

/** Whose marks a reader sees: `null` for every user's (admins), otherwise one user's own runs. */
export type MarkOwnerScope = string | null;

@Injectable()
export class ImprovementMarksRepository {
  constructor(
    @InjectRepository(ImprovementMarkEntity) private readonly rows: Repository<ImprovementMarkEntity>,
  ) {}

  /**
   * Inserts the mark unless this run's tool call already saved one; returns the row holding the key
   * either way (id and reason), inside the caller's transaction.
   */
  async insertOrGetIn(
    manager: EntityManager,
    mark: NewImprovementMark,
  ): Promise<{ id: string; reason: string }> {
    const inserted = await manager.query<{ id: string; reason: string }[]>(
      `INSERT INTO improvement_marks (run_id, tool_call_id, agent_slug, user_id, thread_id, reason)
       VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (run_id, tool_call_id) DO NOTHING
       RETURNING id, reason`,
      [mark.runId, mark.toolCallId, mark.agentSlug, mark.userId, mark.threadId, mark.reason],
    );
    if (inserted.length > 0) return inserted[0];
    const [existing] = await manager.query<{ id: string; reason: string }[]>(
      `SELECT id, reason FROM improvement_marks WHERE run_id = $1 AND tool_call_id = $2`,
      [mark.runId, mark.toolCallId],
    );
    return existing;
  }

  findVisible(owner: MarkOwnerScope, id: string): Promise<ImprovementMarkEntity | null> {
    return this.rows.findOneBy(owner === null ? { id } : { id, userId: owner });
  }

  /** Newest first, `limit + 1` rows (see `toPage`). */
  listVisiblePage(
    owner: MarkOwnerScope,
    filters: MarkFilters,
    limit: number,
    after: KeysetPosition | null,
  ): Promise<ImprovementMarkEntity[]> {
    const query = this.rows.createQueryBuilder('m').where('TRUE');
    if (owner !== null) query.andWhere('m.user_id = :owner', { owner });
    if (filters.userId !== undefined) query.andWhere('m.user_id = :userId', { userId: filters.userId });
    if (filters.agentSlug !== undefined)
      query.andWhere('m.agent_slug = :agentSlug', { agentSlug: filters.agentSlug });
    if (filters.runId !== undefined) query.andWhere('m.run_id = :runId', { runId: filters.runId });
    if (filters.since !== undefined) query.andWhere('m.created_at >= :since', { since: filters.since });
    if (filters.until !== undefined) query.andWhere('m.created_at < :until', { until: filters.until });
    return newestFirstPage(query, 'm', limit, after).getMany();
  }

  /** Deletes marks created more than `days` days ago; returns how many. */
  async deleteOlderThan(days: number): Promise<number> {
    const result = await this.rows
      .createQueryBuilder()
      .delete()
      .where('created_at < now() - make_interval(days => :days)', { days })
      .execute();
    return result.affected ?? 0;
  }
}
