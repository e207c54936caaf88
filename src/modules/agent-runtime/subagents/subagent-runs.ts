import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { DomainError } from '../../../common/errors/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { AgentsService } from '../../agents/index.js';
import { ThreadsService, type ThreadRef } from '../../threads/index.js';
import type { ToolInvocation } from '../../tools/index.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import { RunCreation } from '../runs/run-creation.js';
import { isTerminal } from '../runs/run-status.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunsErrorCode } from '../runs/runs.errors.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { RunTransitions } from '../runs/run-transitions.js';
import type { SubagentAwaitArgs, SubagentStartArgs } from './subagent-tool-schemas.js';
import { SubagentsErrors } from './subagents.errors.js';

const TITLE_CHARS = 200;
const PROGRESS_ITEMS = 5;
const EXCERPT_CHARS = 300;

export type StartResult =
  | { status: 'started'; run_id: string; thread_id: string; subagent_slug: string }
  | { status: 'busy'; thread_id: string; active_run_id: string };

/** A child run as `subagent_await` sees it: ended (with its output) or still active. */
export type AwaitCheck =
  | { run_id: string; status: string; output: string; error?: { code: string; message: string } }
  | { run_id: string; status: string };

/**
 * What the subagent tools do for the parent run calling them. Every lookup by run id is of a run the
 * current parent run created (`parent_run_id`): anything else is `subagents.run_not_found`, with no data.
 * A child run inherits the parent's user (and so its permissions) and its workdir (the child thread
 * shares the parent's project); it runs its own agent's config on its own checkpoint.
 */
@Injectable()
export class SubagentRuns {
  constructor(
    private readonly runs: RunsRepository,
    private readonly creation: RunCreation,
    private readonly threads: ThreadsService,
    private readonly agents: AgentsService,
    private readonly messages: MessagesRepository,
    private readonly transitions: RunTransitions,
    private readonly config: AppConfig,
  ) {}

  async start(args: SubagentStartArgs, invocation: ToolInvocation): Promise<StartResult> {
    const { context, toolCallId } = invocation;
    const parent = await this.parentRun(context.runId);
    const callable = parent.configSnapshot?.subagents ?? [];
    const slug = args.subagent_slug;
    if (!callable.includes(slug)) throw SubagentsErrors.unknownSubagent(slug, callable);
    const agent = await this.agents.findUsable(context.user, slug);
    if (agent === null || !agent.isSubagent) throw SubagentsErrors.unknownSubagent(slug, callable);
    // The same call replayed (a worker that died after starting it) finds the thread and run it made.
    const key = callKey(context.runId, toolCallId);
    await this.assertRoomForChild(parent, key);
    const thread = await this.childThread(args, parent, { id: agent.id, slug }, key);
    let child: RunEntity;
    try {
      // The parent's `subagent` started event is written with the child (RunCreation), so a start
      // executed again after a lost worker finds both and announces nothing twice.
      ({ run: child } = await this.creation.create(parent.userId, thread, {
        input: args.description,
        queuePolicy: 'reject',
        model: null,
        requestId: key,
        parent: { runId: parent.id, leaseToken: context.leaseToken },
      }));
    } catch (error) {
      if (error instanceof DomainError && error.code === RunsErrorCode.THREAD_BUSY)
        return { status: 'busy', thread_id: thread.id, active_run_id: String(error.details?.active_run_id) };
      throw error;
    }
    return { status: 'started', run_id: child.id, thread_id: thread.id, subagent_slug: slug };
  }

  async status(runId: string, invocation: ToolInvocation) {
    const child = await this.child(runId, invocation);
    const recent = (await this.messages.latestOfRun(child.id, PROGRESS_ITEMS)).reverse();
    return {
      run_id: child.id,
      status: child.status,
      progress: {
        recent: recent.map((message) =>
          message.role === 'tool'
            ? { role: 'tool', name: message.name }
            : { role: message.role, text: message.content.slice(0, EXCERPT_CHARS) },
        ),
      },
      ...errorOf(child),
    };
  }

  /** The child's final result if it ended; otherwise its status (the run session then waits for it). */
  async check(args: SubagentAwaitArgs, invocation: ToolInvocation): Promise<AwaitCheck> {
    const child = await this.child(args.run_id, invocation);
    if (!isTerminal(child.status)) return { run_id: child.id, status: child.status };
    const output = (await this.messages.finalOutput(child.id)) ?? '';
    return { run_id: child.id, status: child.status, output, ...errorOf(child) };
  }

  async cancel(runId: string, invocation: ToolInvocation): Promise<{ run_id: string; status: string }> {
    const child = await this.child(runId, invocation);
    if (isTerminal(child.status)) return { run_id: child.id, status: child.status };
    // A running child's worker is signalled and its own children cancelled (`request_cancel`).
    const status = (await this.transitions.cancel(child.id)) ?? (await this.child(runId, invocation)).status;
    return { run_id: child.id, status };
  }

  /** A replayed start (its child exists) always passes; a new one only under the parent's cap. */
  private async assertRoomForChild(parent: RunEntity, key: string): Promise<void> {
    if ((await this.runs.findByRequest(parent.userId, key)) !== null) return;
    const limit = this.config.runtime.maxActiveChildren;
    if ((await this.runs.countActiveChildren(parent.id)) >= limit) throw SubagentsErrors.limitReached(limit);
  }

  private async child(runId: string, invocation: ToolInvocation): Promise<RunEntity> {
    const child = await this.runs.findChild(invocation.context.runId, runId);
    if (child === null) throw SubagentsErrors.runNotFound();
    return child;
  }

  private async parentRun(runId: string): Promise<RunEntity> {
    const parent = await this.runs.findById(runId);
    if (parent === null) throw SubagentsErrors.runNotFound();
    return parent;
  }

  /** The thread to continue (this conversation's, this slug's) or a new child thread. */
  private async childThread(
    args: SubagentStartArgs,
    parent: RunEntity,
    agent: { id: string; slug: string },
    key: string,
  ): Promise<ThreadRef> {
    if (args.thread_id !== undefined && args.thread_id !== null) {
      const thread = await this.threads.findChild(parent.userId, args.thread_id, parent.threadId, agent.slug);
      if (thread === null) throw SubagentsErrors.threadNotFound();
      return thread;
    }
    return this.threads.createChild({
      parentThreadId: parent.threadId,
      userId: parent.userId,
      agent,
      title: args.description.slice(0, TITLE_CHARS),
      requestId: key,
    });
  }
}

/** Idempotency key of one tool call of one run (fits `request_id`, 64 characters). */
function callKey(runId: string, toolCallId: string): string {
  return `subagent:${createHash('sha256').update(`${runId}:${toolCallId}`).digest('hex').slice(0, 48)}`;
}

function errorOf(run: RunEntity): { error?: { code: string; message: string } } {
  return run.error === null ? {} : { error: { code: run.error.code, message: run.error.message } };
}
