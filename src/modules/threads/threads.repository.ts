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

  async deleteOwned(userId: string, id: string): Promise<boolean> {
    const result = await this.rows.delete({ id, userId });
    return (result.affected ?? 0) > 0;
  }
}
