import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

/** A run that keeps its thread (and the thread's workdir) from being deleted now. */
export interface BlockingRun {
  id: string;
  status: string;
}

/** Asked inside the deleting transaction, with the thread's row locked (run creations wait on it). */
export type ThreadDeletionCheck = (manager: EntityManager, threadId: string) => Promise<BlockingRun | null>;

/**
 * Where the module that owns runs plugs in what keeps a thread from being deleted (the runtime does,
 * in `onModuleInit`): the threads module knows nothing of runs itself.
 */
@Injectable()
export class ThreadDeletionChecks {
  private readonly checks: ThreadDeletionCheck[] = [];

  register(check: ThreadDeletionCheck): void {
    this.checks.push(check);
  }

  async blockingRun(manager: EntityManager, threadId: string): Promise<BlockingRun | null> {
    for (const check of this.checks) {
      const run = await check(manager, threadId);
      if (run !== null) return run;
    }
    return null;
  }
}
