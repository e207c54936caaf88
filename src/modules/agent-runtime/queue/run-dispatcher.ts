import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { enqueueOrFail } from '../../../queue/enqueue-or-fail.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { AGENT_RUNS_QUEUE, EXECUTE_RUN_JOB, type AgentRunJob } from './agent-runs.queue.js';

/**
 * Wakes a worker for a run (BullMQ job id = run id, so a second wake-up for the same job is a no-op).
 * A failed wake-up loses nothing: the run row stays `queued` and the reconciler enqueues it again.
 */
@Injectable()
export class RunDispatcher {
  private readonly logger = new Logger(RunDispatcher.name);

  constructor(
    @InjectQueue(AGENT_RUNS_QUEUE) private readonly queue: Queue<AgentRunJob>,
    private readonly redis: RedisClient,
    private readonly runs: RunsRepository,
  ) {}

  /** Enqueues the run; returns false (and logs) when Redis cannot take it now. */
  async dispatch(runId: string): Promise<boolean> {
    try {
      await enqueueOrFail(
        this.redis,
        this.queue,
        EXECUTE_RUN_JOB,
        { runId },
        {
          jobId: runId,
          removeOnComplete: true,
          removeOnFail: true,
        },
      );
      return true;
    } catch (error) {
      this.logger.warn(
        { run_id: runId, err: (error as Error).message },
        'run not enqueued; the reconciler will',
      );
      return false;
    }
  }

  /** Enqueues the thread's next run if the head of the thread is a queued run. */
  async dispatchHead(threadId: string): Promise<void> {
    const head = await this.runs.queuedHead(threadId);
    if (head !== null) await this.dispatch(head);
  }
}
