import { GraphRecursionError } from '@langchain/langgraph';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { CommonErrorCode, DomainError, asDependencyOutage } from '../../../common/errors/index.js';
import { AppConfig } from '../../../config/app-config.js';
import { withReadOnceScope } from '../../../common/read-once/index.js';
import { workdirVirtualPath } from '../../workspace/index.js';
import { projectOf, ThreadsService } from '../../threads/index.js';
import { RunAuthorizationRevokedError, ToolEvents, ToolExecutor } from '../../tools/index.js';
import { ChatModelFactory } from '../model/chat-model.factory.js';
import { RunAuthorization } from '../assembly/run-authorization.js';
import { RunContextPreparer, type PreparedRun } from '../assembly/run-context-preparer.js';
import { ToolAssembler, type AssembledTools } from '../assembly/tool-assembler.js';
import { ToolVisibility } from '../assembly/tool-visibility.js';
import { RunEvents } from '../events/run-events.js';
import { buildAgentGraph } from '../graph/agent-graph.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { LeaseLostError, RunFailureCodes } from '../runs/runs.errors.js';
import { RunTransitions, type ClaimResult, type RunOutcome } from '../runs/run-transitions.js';
import { ActiveRuns, type StopReason } from './active-runs.js';
import { LeaseKeeper } from './lease-keeper.js';
import { invokeRunGraph, type GraphEnd } from './invoke-run-graph.js';
import { RunSession, type QuestionInterrupt } from './run-session.js';
import { WaitingPoints } from '../questions/waiting-points.js';
import type { AwaitInterrupt } from './session/subagent-await.js';

/** How an execution ended for this worker: an outcome to record, or nothing (lease lost, handed back). */
type Ending =
  | { kind: 'outcome'; outcome: RunOutcome }
  | { kind: 'waiting'; question: QuestionInterrupt }
  | { kind: 'awaiting'; wait: AwaitInterrupt }
  | { kind: 'stopped'; reason: StopReason };

/**
 * Executes one run under a lease: claim, prepare (or reuse) the config snapshot, assemble tools, build
 * the graph, run it from the thread's checkpoint, and record how it ended. A run that an earlier worker
 * started resumes from its checkpoint; one that had already finished its graph is just recorded.
 */
@Injectable()
export class RunExecutor implements OnModuleInit {
  private readonly logger = new Logger(RunExecutor.name);

  constructor(
    private readonly transitions: RunTransitions,
    private readonly preparer: RunContextPreparer,
    private readonly authorization: RunAuthorization,
    private readonly assembler: ToolAssembler,
    private readonly visibility: ToolVisibility,
    private readonly checkpointer: Checkpointer,
    private readonly models: ChatModelFactory,
    private readonly executor: ToolExecutor,
    private readonly events: RunEvents,
    private readonly messages: MessagesRepository,
    private readonly toolEvents: ToolEvents,
    private readonly active: ActiveRuns,
    private readonly waitingPoints: WaitingPoints,
    private readonly config: AppConfig,
    private readonly threads: ThreadsService,
    private readonly runs: RunsRepository,
  ) {}

  onModuleInit(): void {
    this.toolEvents.connect(async (context, event) => {
      await this.events.emit(context.runId, [event], { leaseToken: context.leaseToken });
    });
  }

  /**
   * Executes the run if it can be claimed; `jobSignal` is BullMQ's abort signal for the job. Log lines
   * name the run through the caller's log context (`RunLogContext`); `onClaimed` completes it from the row.
   */
  async execute(
    runId: string,
    jobSignal?: AbortSignal,
    onClaimed?: (run: RunEntity) => void,
  ): Promise<ClaimResult['kind']> {
    const leaseToken = randomUUID();
    const claim = await this.transitions.claim(runId, leaseToken);
    if (claim.kind !== 'claimed') return claim.kind;
    const run = claim.run;
    onClaimed?.(run);
    this.logger.log({ attempt: run.attempts }, 'run claimed');

    const stop = new AbortController();
    const onJobAbort = () => stop.abort('cancel' satisfies StopReason);
    jobSignal?.addEventListener('abort', onJobAbort, { once: true });
    const lease = new LeaseKeeper(
      this.transitions,
      run.id,
      leaseToken,
      (this.config.runtime.runLeaseSeconds * 1000) / 3,
      {
        lost: () => stop.abort('lease_lost' satisfies StopReason),
        cancelRequested: () => stop.abort('cancel' satisfies StopReason),
      },
    );
    let finished: () => void = () => undefined;
    this.active.add(run.id, stop, new Promise<void>((resolve) => (finished = resolve)));
    try {
      const ending = await this.run(run, leaseToken, stop.signal);
      await this.record(run, leaseToken, ending);
    } finally {
      lease.stop();
      jobSignal?.removeEventListener('abort', onJobAbort);
      this.active.remove(run.id);
      finished();
    }
    return 'claimed';
  }

  private async run(run: RunEntity, leaseToken: string, signal: AbortSignal): Promise<Ending> {
    try {
      const end = await this.runGraph(run, leaseToken, signal);
      return end.kind === 'completed' ? { kind: 'outcome', outcome: { status: 'completed' } } : end;
    } catch (error) {
      if (signal.aborted) return { kind: 'stopped', reason: signal.reason as StopReason };
      return this.endingOf(run, error);
    }
  }

  private async runGraph(run: RunEntity, leaseToken: string, signal: AbortSignal): Promise<GraphEnd> {
    // Reads that do not depend on each other start together: each is a round trip before the model call.
    // A first execution starts from its user message (a resumed one reads it only if it has to).
    const firstMessageId = run.attempts === 1 ? this.messages.userMessageId(run.id) : null;
    firstMessageId?.catch(() => undefined); // awaited below; a failure is seen there
    const [{ actor, snapshot, assembled }, project] = await Promise.all([
      // What several parts of assembly read alike (skills, MCP servers, settings) is read once.
      withReadOnceScope(() => this.prepareAndAssemble(run, leaseToken)),
      this.threads.projectOfThread(run.threadId),
    ]);
    // Every tool or source left out (an MCP server down, web tools not configured): one event each.
    const { executable, offeredTools, unavailable } = assembled;
    if (unavailable.length > 0) {
      await this.events.emit(
        run.id,
        unavailable.map((component) => ({ type: 'unavailable' as const, payload: { ...component } })),
        { leaseToken },
      );
    }
    const session = new RunSession(
      {
        events: this.events,
        messages: this.messages,
        executor: this.executor,
        visibility: this.visibility,
        checkpoints: this.checkpointer.saver,
        eventFlushMs: this.config.runtime.eventFlushMs,
        maxToolCallsPerTurn: this.config.runtime.maxToolCallsPerTurn,
      },
      {
        runId: run.id,
        threadId: run.threadId,
        leaseToken,
        snapshot,
        executable,
        model: this.models.create({ model: snapshot.model }),
        signal,
        resumed: run.attempts > 1,
        toolContext: {
          user: actor,
          runId: run.id,
          threadId: run.threadId,
          leaseToken,
          // A subagent's child thread works in its parent conversation's project.
          workdir: workdirVirtualPath(project ?? projectOf(run.threadId)),
          executableTools: new Set(executable.map((tool) => tool.name)),
          offeredTools,
          isSubagent: snapshot.agent.is_subagent,
          signal,
          verifyAuthorization: () => this.authorization.verify(run.id, leaseToken, run),
        },
      },
    );
    const graph = buildAgentGraph(session, this.checkpointer.saver);
    const config = {
      configurable: { thread_id: run.threadId },
      recursionLimit: snapshot.max_execution_steps,
      signal,
      durability: 'sync' as const,
    };
    const ended = invokeRunGraph(graph, run, config, {
      messages: this.messages,
      waitingPoints: this.waitingPoints,
      runs: this.runs,
      userMessageId: () => firstMessageId ?? this.messages.userMessageId(run.id),
    });
    // A step's record that no checkpoint took (the graph stopped after the step, before its
    // checkpoint) is stored before the run's ending; when the graph failed, its failure is what counts.
    const detached = () => this.checkpointer.saver.storeDetached(run.threadId);
    const end = await ended.catch(async (error: unknown) => {
      await detached().catch(() => undefined);
      throw error;
    });
    await detached();
    return end;
  }

  /**
   * The frozen snapshot of a resumed run (authorization re-checked), or a new one saved on the run while
   * the tools are assembled from it.
   */
  private async prepareAndAssemble(
    run: RunEntity,
    leaseToken: string,
  ): Promise<PreparedRun & { assembled: AssembledTools }> {
    if (run.configSnapshot !== null) {
      const { actor } = await this.authorization.actorAndAgent(run);
      const snapshot = run.configSnapshot;
      return { actor, snapshot, assembled: await this.assemble(run, { actor, snapshot }) };
    }
    const prepared = await this.preparer.prepare(run);
    const [saved, assembled] = await Promise.allSettled([
      this.transitions.saveSnapshot(run.id, leaseToken, prepared.snapshot),
      this.assemble(run, prepared),
    ]);
    if (saved.status === 'rejected') throw saved.reason;
    if (!saved.value) throw new LeaseLostError(run.id);
    if (assembled.status === 'rejected') throw assembled.reason;
    return { ...prepared, assembled: assembled.value };
  }

  private assemble(run: RunEntity, { actor, snapshot }: PreparedRun): Promise<AssembledTools> {
    return this.assembler.assemble({ runId: run.id, threadId: run.threadId, actor, snapshot });
  }

  private endingOf(run: RunEntity, error: unknown): Ending {
    if (error instanceof LeaseLostError) return { kind: 'stopped', reason: 'lease_lost' };
    if (error instanceof RunAuthorizationRevokedError) return failed(error.code, error.message);
    // PostgreSQL or Redis failed under the run (a blip, a failover): not the run's fault, so it is handed
    // back and resumed from its checkpoint by the reconciler instead of failing for good.
    if (asDependencyOutage(error) !== null || isOutageError(error)) {
      this.logger.warn({ err: error }, 'run interrupted by a dependency outage');
      return { kind: 'stopped', reason: 'dependency_outage' };
    }
    if (error instanceof GraphRecursionError)
      return failed(
        RunFailureCodes.stepLimitExceeded,
        'The run reached its step limit (max_execution_steps).',
      );
    if (error instanceof DomainError) return failed(error.code, error.message, error.details);
    this.logger.error({ err: error }, 'run failed unexpectedly');
    return failed(RunFailureCodes.internal, 'The run failed unexpectedly.');
  }

  private async record(run: RunEntity, leaseToken: string, ending: Ending): Promise<void> {
    try {
      if (ending.kind === 'waiting') {
        const { tool_call_id: toolCallId, questions } = ending.question;
        // A cancel requested meanwhile wins over the question (the transitions finish the run cancelled).
        if ((await this.waitingPoints.park(run, leaseToken, toolCallId, questions)) === 'not_running')
          this.logger.log({ status: 'cancelled' }, 'run finished');
        else this.logger.log({ tool_call_id: toolCallId }, 'run waiting');
        return;
      }
      if (ending.kind === 'awaiting') {
        const { run_ids: childIds, until } = ending.wait;
        const parked = await this.transitions.parkAwaiting(run, leaseToken, childIds, new Date(until));
        this.logger.log({ awaiting: childIds, until, result: parked }, 'run awaiting subagents');
        return;
      }
      if (ending.kind === 'outcome') {
        if (await this.transitions.finish(run, leaseToken, ending.outcome))
          this.logger.log(
            { status: ending.outcome.status, error_code: ending.outcome.error?.code },
            'run finished',
          );
        else this.logger.warn('lease lost before the outcome was recorded');
        return;
      }
      switch (ending.reason) {
        case 'cancel':
          if (await this.transitions.finish(run, leaseToken, { status: 'cancelled' }))
            this.logger.log({ status: 'cancelled' }, 'run finished');
          return;
        case 'shutdown':
          await this.transitions.release(run, leaseToken);
          this.logger.log('run handed back at shutdown');
          return;
        case 'dependency_outage':
          await this.transitions.release(run, leaseToken);
          this.logger.log('run handed back after a dependency outage');
          return;
        case 'lease_lost':
          this.logger.warn('lease lost: another worker or the reconciler owns the run');
      }
    } catch (error) {
      // The lease runs out and the reconciler takes over.
      this.logger.error({ err: error }, 'could not record how the run ended');
    }
  }
}

function isOutageError(error: unknown): boolean {
  return error instanceof DomainError && error.code === CommonErrorCode.DEPENDENCY_UNAVAILABLE;
}

function failed(code: string, message: string, details?: Record<string, unknown>): Ending {
  return {
    kind: 'outcome',
    outcome: { status: 'failed', error: { code, message, ...(details ? { details } : {}) } },
  };
}
