import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config.js';
import {
  CANDIDATES_SQL,
  LOCK_ACTIVE_RUNS_SQL,
  PRUNE_THREAD_SQL,
  TABLES_EXIST_SQL,
} from './checkpoint-prune-sql.js';

/** Batches one pass goes through at most; the next pass (the next interval) continues. */
const MAX_BATCHES_PER_PASS = 50;

export interface PruneCounts {
  threads: number;
  skipped: number;
  checkpoints: number;
  writes: number;
  blobs: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A thread's run statuses that mean it is being written or about to be: such a thread is left alone. */
const WRITING = new Set(['queued', 'running', 'cancel_requested']);

/**
 * Keeps only the latest checkpoint of each thread (with what a pending interrupt needs) and deletes the
 * rest, a batch of threads at a time, each thread in its own short transaction. Resume and thread state
 * read nothing else: a run continues from the latest checkpoint and its pending writes, a thread's
 * messages are rows of `messages`, its activated skills are in the latest checkpoint.
 */
@Injectable()
export class CheckpointPruning {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** One pass over the threads, `CHECKPOINT_PRUNE_BATCH` threads per batch, at most `maxBatches`. */
  async pruneAll(maxBatches = MAX_BATCHES_PER_PASS): Promise<PruneCounts> {
    const total: PruneCounts = { threads: 0, skipped: 0, checkpoints: 0, writes: 0, blobs: 0 };
    const [exists] = await this.dataSource.query<{ ok: boolean }[]>(TABLES_EXIST_SQL);
    if (exists?.ok !== true) return total;
    let after = '';
    for (let batch = 0; batch < maxBatches; batch++) {
      const rows = await this.dataSource.query<{ thread_id: string }[]>(CANDIDATES_SQL, [
        after,
        this.config.runtime.checkpointPruneBatch,
      ]);
      for (const { thread_id: threadId } of rows) {
        const counts = await this.pruneThread(threadId);
        if (counts === null) total.skipped++;
        else {
          total.threads++;
          total.checkpoints += counts.checkpoints;
          total.writes += counts.writes;
          total.blobs += counts.blobs;
        }
      }
      if (rows.length < this.config.runtime.checkpointPruneBatch) break;
      after = rows.at(-1)!.thread_id;
    }
    return total;
  }

  /** Prunes one thread; null when it was skipped (a run is writing it, or it is no thread of ours). */
  async pruneThread(threadId: string): Promise<Pick<PruneCounts, 'checkpoints' | 'writes' | 'blobs'> | null> {
    if (!UUID.test(threadId)) return null;
    return this.dataSource.transaction(async (manager) => {
      const active = await manager.query<{ status: string }[]>(LOCK_ACTIVE_RUNS_SQL, [threadId]);
      if (active.some((run) => WRITING.has(run.status))) return null;
      const [counts] = await manager.query<{ checkpoints: number; writes: number; blobs: number }[]>(
        PRUNE_THREAD_SQL,
        [threadId],
      );
      return counts;
    });
  }
}
