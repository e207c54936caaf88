import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, Logger } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { enqueueOrFail } from '../../../queue/enqueue-or-fail.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { RunsRepository, type QueuedRun } from '../runs/runs.repository.js';
import { AGENT_RUNS_QUEUE, EXECUTE_RUN_JOB, type AgentRunJob } from './agent-runs.queue.js';
import { publishRunJob } from './run-job-trace.js';

/**
 * The job of a run: the run id for its first execution, so a second wake-up is a no-op. A run that is
 * queued again after it was claimed (its worker died, was shut down, or it waited for an answer) gets
 * the next id of its own (`<run id>.a<claims>`): the old job may still sit in BullMQ, locked by a dead
 * worker, and must not swallow the new wake-up. Stale jobs find the run not claimable and do nothing.
 */
export function runJobId(run: QueuedRun): string {
  return run.attempts === 0 ? run.id : `${run.id}.a${run.attempts}`;
}

/**
 * The job's payload: the run and, when known, the requests that created and resumed it, and the trace
 * context its execution continues.
 */
function jobOf(run: QueuedRun, traceparent: string | undefined): AgentRunJob {
  return {
    runId: run.id,
    requestId: run.originRequestId,
    ...(run.resumeRequestId === null ? {} : { resumeRequestId: run.resumeRequestId }),
    ...(traceparent === undefined ? {} : { traceparent }),
  };
}

/**
 * Wakes a worker for a queued run. A failed wake-up loses nothing: the run row stays `queued` and the
 * reconciler enqueues it again.
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
  async dispatch(run: QueuedRun): Promise<boolean> {
    const runId = run.id;
    const jobId = runJobId(run);
    try {
      await publishRunJob(run, jobId, {}, (traceparent) =>
        enqueueOrFail(this.redis, this.queue, EXECUTE_RUN_JOB, jobOf(run, traceparent), {
          jobId,
          removeOnComplete: true,
          removeOnFail: true,
        }),
      );
      return true;
    } catch (error) {
      this.logger.warn(
        // `request_id` is already the serving request (HTTP) or the finishing run (worker).
        { run_id: runId, origin_request_id: run.originRequestId, err: (error as Error).message },
        'run not enqueued; the reconciler will',
      );
      return false;
    }
  }

  /**
   * A delayed job that wakes a run parked in `subagent_await` at its deadline (`<run id>.w<claims>`,
   * apart from the job its children's end enqueues). Lost, it is made up for by the reconciler.
   */
  async dispatchWake(run: QueuedRun, at: Date): Promise<boolean> {
    const jobId = `${run.id}.w${run.attempts}`;
    const delay = Math.max(0, at.getTime() - Date.now());
    try {
      await publishRunJob(run, jobId, { 'yuxi.job.delay_ms': delay }, (traceparent) =>
        enqueueOrFail(
          this.redis,
          this.queue,
          EXECUTE_RUN_JOB,
          { ...jobOf(run, traceparent), awaitDeadline: true },
          { jobId, delay, removeOnComplete: true, removeOnFail: true },
        ),
      );
      return true;
    } catch (error) {
      this.logger.warn({ run_id: run.id, err: (error as Error).message }, 'await wake-up not enqueued');
      return false;
    }
  }

  /** Enqueues the thread's next run if the head of the thread is a queued run. */
  async dispatchHead(threadId: string): Promise<void> {
    const head = await this.runs.queuedHead(threadId);
    if (head !== null) await this.dispatch(head);
  }
}
