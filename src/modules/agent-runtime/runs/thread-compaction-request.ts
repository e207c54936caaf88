import { InjectQueue } from '@nestjs/bullmq';
import { Injectable } from '@nestjs/common';
import type { Queue } from 'bullmq';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { currentRequestId } from '../../../common/request-id/request-context.js';
import { enqueueOrFail } from '../../../queue/enqueue-or-fail.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { ThreadsService } from '../../threads/index.js';
import {
  COMPACT_THREAD_JOB,
  THREAD_COMPACTION_QUEUE,
  type CompactThreadJob,
} from '../queue/thread-compaction.queue.js';
import { RunsErrors } from './runs.errors.js';
import { RunsRepository } from './runs.repository.js';

/**
 * `POST /api/threads/:id/compact`: an idle thread's history is compressed on request. The API process
 * holds no model client and no checkpointer, so the work goes to a worker (`ThreadCompactor`), which
 * writes the result only if the thread is still idle and its checkpoint unchanged.
 */
@Injectable()
export class ThreadCompactionRequests {
  constructor(
    private readonly threads: ThreadsService,
    private readonly runs: RunsRepository,
    private readonly redis: RedisClient,
    @InjectQueue(THREAD_COMPACTION_QUEUE) private readonly queue: Queue<CompactThreadJob>,
  ) {}

  async request(user: AuthenticatedUser, threadId: string): Promise<{ thread_id: string; status: 'queued' }> {
    const thread = await this.threads.getOwned(user, threadId);
    if (thread.parentThreadId !== null) throw RunsErrors.childThread(thread.id);
    const [active] = await this.runs.activeInThread(thread.id);
    if (active !== undefined)
      throw active.status === 'waiting' && active.awaitedRunIds === null
        ? RunsErrors.waitingForAnswer(active.id)
        : RunsErrors.threadBusy(active.id);
    const job: CompactThreadJob = {
      threadId: thread.id,
      agentSlug: thread.agentSlug,
      user: { id: user.id, role: user.role, departmentId: user.departmentId },
      requestId: currentRequestId(),
    };
    // One pending compaction per thread: asking again while it waits adds nothing.
    await enqueueOrFail(this.redis, this.queue, COMPACT_THREAD_JOB, job, {
      jobId: `compact-${thread.id}`,
      removeOnComplete: true,
      removeOnFail: true,
    });
    return { thread_id: thread.id, status: 'queued' };
  }
}
