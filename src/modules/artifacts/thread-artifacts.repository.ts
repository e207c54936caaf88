import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { MoreThan, Repository } from 'typeorm';
import { ThreadArtifactEntity } from './thread-artifact.entity.js';

@Injectable()
export class ThreadArtifactsRepository {
  constructor(
    @InjectRepository(ThreadArtifactEntity) private readonly rows: Repository<ThreadArtifactEntity>,
  ) {}

  /**
   * Appends paths not yet presented in the thread, after the existing ones and in the given order.
   * Serialized per thread (advisory lock), so concurrent calls cannot interleave positions.
   */
  async append(threadId: string, runId: string, userId: string, paths: readonly string[]): Promise<void> {
    await this.rows.manager.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext('thread_artifacts:' || $1))`, [threadId]);
      await manager.query(
        `INSERT INTO thread_artifacts (thread_id, run_id, user_id, path, position)
         SELECT $1, $2, $3, p.path,
                (SELECT coalesce(max(position), 0) FROM thread_artifacts WHERE thread_id = $1) + p.ordinality
           FROM unnest($4::text[]) WITH ORDINALITY AS p(path, ordinality)
          WHERE NOT EXISTS (SELECT 1 FROM thread_artifacts a WHERE a.thread_id = $1 AND a.path = p.path)`,
        [threadId, runId, userId, paths],
      );
    });
  }

  /** Up to `count` of the owner's artifacts of the thread presented after `afterPosition`, in order. */
  pageForThread(
    threadId: string,
    userId: string,
    afterPosition: number | null,
    count: number,
  ): Promise<ThreadArtifactEntity[]> {
    return this.rows.find({
      where: { threadId, userId, ...(afterPosition === null ? {} : { position: MoreThan(afterPosition) }) },
      order: { position: 'ASC' },
      take: count,
    });
  }

  /** The thread's artifacts in presentation order; only the owner's rows. */
  listForThread(threadId: string, userId: string): Promise<ThreadArtifactEntity[]> {
    return this.rows.find({ where: { threadId, userId }, order: { position: 'ASC' } });
  }
}
