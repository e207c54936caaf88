import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ThreadDeletionChecks } from '../../threads/index.js';
import { RunsRepository } from './runs.repository.js';

/**
 * Keeps a thread from being deleted while one of its runs has not finished: that run could still write
 * into the thread's workdir, which is deleted with the thread.
 */
@Injectable()
export class ThreadDeletionGuard implements OnModuleInit {
  constructor(
    private readonly checks: ThreadDeletionChecks,
    private readonly runs: RunsRepository,
  ) {}

  onModuleInit(): void {
    this.checks.register(async (manager, threadId) => {
      const [run] = await this.runs.activeInThread(threadId, manager);
      return run === undefined ? null : { id: run.id, status: run.status };
    });
  }
}
