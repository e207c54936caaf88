import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { preparedFindOneBy } from '../../database/prepared-find.js';
import { preparedQueryIn } from '../../database/prepared-query.js';
import { Repository, type EntityManager } from 'typeorm';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { ThreadEntity } from './thread.entity.js';

export type NewThread = Pick<
  ThreadEntity,
  'id' | 'userId' | 'agentId' | 'agentSlug' | 'title' | 'project' | 'requestId' | 'payloadDigest'
> &
  Partial<Pick<ThreadEntity, 'parentThreadId'>>;

@Injectable()
export class ThreadsRepository {
  constructor(@InjectRepository(ThreadEntity) private readonly rows: Repository<ThreadEntity>) {}

  /** The thread if it belongs to `userId`; another user's thread is indistinguishable from none. */
  findOwned(userId: string, id: string): Promise<ThreadEntity | null> {
    return preparedFindOneBy(this.rows, { id, userId });
  }

  findById(id: string): Promise<ThreadEntity | null> {
    return preparedFindOneBy(this.rows, { id });
  }

  findByRequest(userId: string, requestId: string): Promise<ThreadEntity | null> {
    return this.rows.findOneBy({ userId, requestId });
  }

  /** Inserts unless this user already used the request id; returns the row holding it either way. */
  async insertOrGetByRequest(thread: NewThread): Promise<ThreadEntity> {
    await this.rows.createQueryBuilder().insert().values(thread).orIgnore().execute();
    return thread.requestId === null
      ? this.rows.findOneByOrFail({ id: thread.id })
      : this.rows.findOneByOrFail({ userId: thread.userId, requestId: thread.requestId });
  }

  /** The user's top-level threads (child threads of subagents are not listed), newest first. */
  listOwnedPage(userId: string, limit: number, after: KeysetPosition | null): Promise<ThreadEntity[]> {
    const query = this.rows
      .createQueryBuilder('t')
      .where('t.user_id = :userId AND t.parent_thread_id IS NULL', { userId });
    return newestFirstPage(query, 't', limit, after).getMany();
  }

  /** Those of `ids` no thread has (deleted, or never one): one statement for the whole list. */
  async missingAmong(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.rows.query<{ id: string }[]>(
      `SELECT c.id FROM unnest($1::text[]) AS c(id)
        WHERE NOT EXISTS (SELECT 1 FROM threads t WHERE t.id::text = c.id)`,
      [ids],
    );
    return rows.map((row) => row.id);
  }

  /** The thread's row locked FOR UPDATE in the caller's transaction (null if gone): its agent as of now. */
  async lockIn(manager: EntityManager, id: string): Promise<Pick<ThreadEntity, 'agentId'> | null> {
    const [locked] = await preparedQueryIn<{ agent_id: string | null }>(
      manager,
      `SELECT agent_id FROM threads WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return locked === undefined ? null : { agentId: locked.agent_id };
  }

  async rename(userId: string, id: string, title: string): Promise<void> {
    await this.rows.update({ id, userId }, { title });
  }

  /**
   * Deletes the user's thread once `mayDelete` (run in the same transaction, with the thread's row
   * locked FOR UPDATE, as a run's creation locks it) did not throw. false when there is no such thread.
   */
  deleteOwned(
    userId: string,
    id: string,
    mayDelete: (manager: EntityManager) => Promise<void>,
  ): Promise<boolean> {
    return this.rows.manager.transaction(async (manager) => {
      const locked = await preparedQueryIn<{ id: string }>(
        manager,
        `SELECT id FROM threads WHERE id = $1 AND user_id = $2 FOR UPDATE`,
        [id, userId],
      );
      if (locked.length === 0) return false;
      await mayDelete(manager);
      await preparedQueryIn(manager, `DELETE FROM threads WHERE id = $1`, [id]);
      return true;
    });
  }
}
