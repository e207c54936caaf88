import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ConsumersGate } from '../../../queue/consumers-gate.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { compactThreadJobSchema, THREAD_COMPACTION_QUEUE } from '../queue/thread-compaction.queue.js';
import { ThreadCompactor, type CompactionOutcome } from './thread-compactor.js';

/** Consumes `thread-compaction`: one job per compaction a thread's owner asked for. */
// Started in onApplicationBootstrap, once the checkpointer is ready.
@Processor(THREAD_COMPACTION_QUEUE, { autorun: false })
export class ThreadCompactionProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(ThreadCompactionProcessor.name);

  constructor(
    private readonly compactor: ThreadCompactor,
    private readonly checkpointer: Checkpointer,
    private readonly gate: ConsumersGate,
  ) {
    super();
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.checkpointer.ready();
    void this.gate.opened.then(() => {
      this.worker
        .run()
        .catch((error: Error) =>
          this.logger.error({ err: error.message }, 'thread-compaction worker stopped'),
        );
    });
  }

  /** A bad payload is logged and dropped, not retried. */
  async process(
    job: Job<unknown>,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<CompactionOutcome | 'invalid_payload'> {
    const parsed = compactThreadJobSchema.safeParse(job.data);
    if (!parsed.success) {
      this.logger.error(
        { job_id: job.id, issues: parsed.error.issues },
        'thread-compaction job dropped: bad payload',
      );
      return 'invalid_payload';
    }
    return this.compactor.compact(parsed.data, signal ?? new AbortController().signal);
  }
}
