import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { Job } from 'bullmq';
import { ConsumersGate } from '../../../queue/consumers-gate.js';
import { KnowledgeIndexer, type IndexOutcome } from './knowledge-indexer.js';
import {
  INDEX_FILE_ATTEMPTS,
  KNOWLEDGE_INDEXING_QUEUE,
  type IndexFileJob,
} from './knowledge-indexing.queue.js';

/** Concurrent files per worker process; parsing itself is bounded by the OCR conversion slots. */
const CONCURRENCY = 2;

/** Consumes the indexing jobs (one per uploaded file version); the file row, not the job, decides. */
@Processor(KNOWLEDGE_INDEXING_QUEUE, { autorun: false })
export class KnowledgeIndexingProcessor extends WorkerHost implements OnApplicationBootstrap {
  private readonly logger = new Logger(KnowledgeIndexingProcessor.name);

  constructor(
    private readonly indexer: KnowledgeIndexer,
    private readonly gate: ConsumersGate,
  ) {
    super();
  }

  onApplicationBootstrap(): void {
    this.worker.concurrency = CONCURRENCY;
    // Not awaited: the entrypoint opens the gate only once every start-up hook has run.
    void this.gate.opened.then(() => {
      this.worker
        .run()
        .catch((error: Error) =>
          this.logger.error({ err: error.message }, 'knowledge-indexing worker stopped'),
        );
    });
  }

  async process(
    job: Job<IndexFileJob>,
    _token?: string,
    signal?: AbortSignal,
  ): Promise<IndexOutcome | 'invalid_payload'> {
    const fileId = (job.data as Partial<IndexFileJob> | undefined)?.fileId;
    if (typeof fileId !== 'string') return 'invalid_payload';
    const finalAttempt = job.attemptsMade + 1 >= (job.opts.attempts ?? INDEX_FILE_ATTEMPTS);
    const outcome = await this.indexer.index(fileId, signal ?? new AbortController().signal, finalAttempt);
    this.logger.log({ file_id: fileId, outcome }, 'knowledge file processed');
    return outcome;
  }
}
