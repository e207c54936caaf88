import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { withReadOnceScope } from '../../../common/read-once/index.js';
import { ConversationSummaries, workdirVirtualPath } from '../../workspace/index.js';
import { projectOf, ThreadsService } from '../../threads/index.js';
import { ToolExecutor } from '../../tools/index.js';
import { ChatModelFactory } from '../model/chat-model.factory.js';
import { RunAuthorization } from '../assembly/run-authorization.js';
import { ToolVisibility } from '../assembly/tool-visibility.js';
import { RunEvents } from '../events/run-events.js';
import { buildAgentGraph } from '../graph/agent-graph.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { MessagesRepository } from '../messages/messages.repository.js';
import type { RunEntity } from '../runs/run.entity.js';
import { RunStore } from '../runs/run-store.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { WaitingPoints } from '../questions/waiting-points.js';
import { invokeRunGraph, type GraphEnd } from './invoke-run-graph.js';
import { RunSession } from './run-session.js';
import { RunSnapshotAndTools } from './run-snapshot-and-tools.js';
import { RunApprovalLoader } from '../approvals/run-approval-loader.js';
import { contextLimitsOf } from '../context/context-limits.js';

/**
 * Runs a claimed run's graph once, under its lease: loads its snapshot and tools, reports the tools
 * left out, builds the session and graph, and runs it from the thread's checkpoint to where it ends.
 */
@Injectable()
export class RunGraphExecution {
  constructor(
    private readonly snapshotAndTools: RunSnapshotAndTools,
    private readonly authorization: RunAuthorization,
    private readonly visibility: ToolVisibility,
    private readonly checkpointer: Checkpointer,
    private readonly models: ChatModelFactory,
    private readonly executor: ToolExecutor,
    private readonly events: RunEvents,
    private readonly messages: MessagesRepository,
    private readonly waitingPoints: WaitingPoints,
    private readonly config: AppConfig,
    private readonly threads: ThreadsService,
    private readonly runs: RunsRepository,
    private readonly approvals: RunApprovalLoader,
    private readonly summaries: ConversationSummaries,
    private readonly store: RunStore,
  ) {}

  async run(run: RunEntity, leaseToken: string, signal: AbortSignal): Promise<GraphEnd> {
    // Reads that do not depend on each other start together: each is a round trip before the model call.
    // A first execution starts from its user message (a resumed one reads it only if it has to).
    const firstMessageId = run.attempts === 1 ? this.messages.userMessageId(run.id) : null;
    firstMessageId?.catch(() => undefined); // awaited below; a failure is seen there
    const [{ actor, agent, snapshot, assembled }, project] = await Promise.all([
      // What several parts of assembly read alike (skills, MCP servers, settings) is read once.
      withReadOnceScope(() => this.snapshotAndTools.load(run, leaseToken)),
      this.threads.projectOfThread(run.threadId),
    ]);
    const approval = this.approvals.load(agent, run.threadId);
    // Every tool or source left out (an MCP server down, web tools not configured): one event each.
    const { executable, offeredTools, unavailable } = assembled;
    if (unavailable.length > 0) {
      await this.events.emit({
        runId: run.id,
        events: unavailable.map((component) => ({ type: 'unavailable' as const, payload: { ...component } })),
        fence: { leaseToken },
      });
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
        waitingPoints: this.waitingPoints,
        summaries: this.summaries,
        usage: this.store,
      },
      {
        runId: run.id,
        threadId: run.threadId,
        leaseToken,
        snapshot,
        executable,
        model: this.models.create({ model: snapshot.model }),
        context: contextLimitsOf(this.config, snapshot.model),
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
          skills: snapshot.skills,
          signal,
          approval,
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
}
