import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ThreadsService } from '../../threads/index.js';
import { RunCreation, type CreatedRun, type NewRunRequest } from './run-creation.js';
import { RunsErrors } from './runs.errors.js';
import { RunsRepository } from './runs.repository.js';

/**
 * What `POST /api/threads/:id/runs` does once the body is read: the caller's own thread (not a
 * subagent's child thread), then `RunCreation`. Scheduled runs start through here too, so they are
 * authorized and created exactly like a user's message.
 */
@Injectable()
export class RunStarter {
  constructor(
    private readonly threads: ThreadsService,
    private readonly creation: RunCreation,
    private readonly runs: RunsRepository,
  ) {}

  async start(
    user: AuthenticatedUser,
    threadId: string,
    request: Omit<NewRunRequest, 'parent'>,
  ): Promise<CreatedRun> {
    const thread = await this.threads.getOwned(user, threadId);
    if (thread.parentThreadId !== null) throw RunsErrors.childThread(thread.id);
    return this.creation.create(user.id, thread, request);
  }

  /** Whether any of these runs has not ended yet (queued, running, waiting, being cancelled). */
  anyActive(runIds: string[]): Promise<boolean> {
    return runIds.length === 0 ? Promise.resolve(false) : this.runs.anyActive(runIds);
  }
}
