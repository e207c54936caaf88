import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { AppConfig } from '../../../config/app-config.js';
import { ThreadsService, type ThreadRef } from '../../threads/index.js';
import { RunEndWaiter } from '../events/run-end-waiter.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { RunCreation } from '../runs/run-creation.js';
import { RunsErrors } from '../runs/runs.errors.js';
import { RunsRepository } from '../runs/runs.repository.js';
import type { AgentCallResultDto, CreateAgentCallDto } from './agent-call.dto.js';
import { AgentCallsErrors } from './agent-calls.errors.js';

const TITLE_CHARS = 80;

/** The Public API's one-call convenience: thread (created if needed) + run, optionally waiting for the end. */
@Injectable()
export class AgentCallsService {
  constructor(
    private readonly threads: ThreadsService,
    private readonly creation: RunCreation,
    private readonly waiter: RunEndWaiter,
    private readonly messages: MessagesRepository,
    private readonly runs: RunsRepository,
    private readonly config: AppConfig,
  ) {}

  async call(user: AuthenticatedUser, input: CreateAgentCallDto): Promise<AgentCallResultDto> {
    const thread = await this.threadFor(user, input);
    const { run } = await this.creation
      .create(user.id, thread, {
        input: input.input,
        queuePolicy: 'enqueue',
        model: null,
        requestId: input.request_id ?? null,
      })
      .catch(async (error: unknown) => {
        // A thread made for this call and left without any run is not kept.
        if (input.thread_id === undefined && (await this.runs.countInThread(thread.id)) === 0)
          await this.threads.delete(user, thread.id).catch(() => undefined);
        throw error;
      });
    if (input.wait !== true) return { run_id: run.id, thread_id: thread.id, status: run.status };
    const status = await this.waiter.waitForEndOrUser(
      run.id,
      this.config.runtime.agentCallWaitSeconds * 1000,
    );
    if (status === null) throw RunsErrors.waitTimeout(run.id, thread.id);
    const output = status === 'completed' ? await this.messages.finalOutput(run.id) : null;
    return { run_id: run.id, thread_id: thread.id, status, ...(output === null ? {} : { output }) };
  }

  private async threadFor(user: AuthenticatedUser, input: CreateAgentCallDto): Promise<ThreadRef> {
    if (input.thread_id !== undefined) {
      const thread = await this.threads.getOwned(user, input.thread_id);
      if (thread.parentThreadId !== null) throw RunsErrors.childThread(thread.id);
      if (thread.agentSlug !== input.agent_slug) throw AgentCallsErrors.threadAgentMismatch(thread.agentSlug);
      return thread;
    }
    const created = await this.threads.create(user, {
      agent_slug: input.agent_slug,
      title: input.input.trim().slice(0, TITLE_CHARS),
      // A replayed call finds the thread its first attempt created.
      request_id: input.request_id === undefined ? undefined : threadRequestId(input.request_id),
    });
    return this.threads.getOwned(user, created.id);
  }
}

function threadRequestId(requestId: string): string {
  return `agent-call:${createHash('sha256').update(requestId).digest('hex').slice(0, 40)}`;
}
