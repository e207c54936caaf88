import { RemoveMessage, type BaseMessage } from '@langchain/core/messages';
import { REMOVE_ALL_MESSAGES } from '@langchain/langgraph';
import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config.js';
import { projectOf, ThreadsService } from '../../threads/index.js';
import { ConversationSummaries, workdirVirtualPath } from '../../workspace/index.js';
import { contextLimitsOf } from '../context/context-limits.js';
import { fitContext } from '../context/fit-context.js';
import { buildAgentGraph, type AgentSteps, type RunStateValues } from '../graph/agent-graph.js';
import { Checkpointer } from '../graph/checkpointer.js';
import { repairDanglingToolCalls } from '../graph/repair-history.js';
import { ChatModelFactory } from '../model/chat-model.factory.js';
import type { CompactThreadJob } from '../queue/thread-compaction.queue.js';
import { RunStore } from '../runs/run-store.js';
import { RunsRepository } from '../runs/runs.repository.js';
import { callUsageOf } from '../usage/model-call-usage.js';

/** What a compaction on request came to (the job's result, for logs). */
export type CompactionOutcome =
  'compacted' | 'nothing_to_compact' | 'not_idle' | 'changed_meanwhile' | 'failed';

/** The graph is built only to read and write the thread's state: no step ever runs. */
const NO_STEPS: AgentSteps = {
  callModel: () => Promise.reject(new Error('a compaction runs no model step')),
  reviewCalls: () => Promise.reject(new Error('a compaction reviews no call')),
  runTools: () => Promise.reject(new Error('a compaction runs no tool')),
};

/**
 * Compresses an idle thread's history on its owner's request (`POST /api/threads/:id/compact`): the
 * oldest turns are summarized as a run would (`fitContext`, forced), with the model of the thread's
 * latest run. The new history is written to the thread's checkpoint only while the thread row is
 * locked (run creation waits on it), no run is active and the checkpoint is still the one summarized;
 * otherwise nothing is written. The summary file follows the checkpoint.
 */
@Injectable()
export class ThreadCompactor {
  private readonly logger = new Logger(ThreadCompactor.name);

  constructor(
    private readonly checkpointer: Checkpointer,
    private readonly models: ChatModelFactory,
    private readonly config: AppConfig,
    private readonly runs: RunsRepository,
    private readonly threads: ThreadsService,
    private readonly summaries: ConversationSummaries,
    private readonly dataSource: DataSource,
    private readonly store: RunStore,
  ) {}

  async compact(job: CompactThreadJob, signal: AbortSignal): Promise<CompactionOutcome> {
    const { threadId, user } = job;
    const graph = buildAgentGraph(NO_STEPS, this.checkpointer.saver);
    const config = { configurable: { thread_id: threadId } };
    const state = await graph.getState(config);
    const messages = (state.values as Partial<RunStateValues>).messages ?? [];
    if (messages.length === 0) return 'nothing_to_compact';
    if (state.next.length > 0) return 'not_idle';
    const latest = await this.runs.latestModelRunOfThread(threadId);
    const model = latest?.model ?? this.config.llm.defaultModel;
    const saved: { summary?: { name: string; text: string } } = {};
    let compacted: BaseMessage[] | null;
    try {
      ({ compacted } = await fitContext(
        {
          model: this.models.create({ model }),
          context: contextLimitsOf(this.config, model),
          signal,
          runId: null,
          emit: () => Promise.resolve(),
          saveSummary: (name, text) => Promise.resolve((saved.summary = { name, text })),
          // No run makes this call: it is counted under the thread's latest run, as a summary (a run's
          // token_usage sums its agent calls only; the thread's usage and the reports include it).
          recordSummaryCall: (usage) =>
            latest === null
              ? Promise.resolve()
              : this.store.recordModelUsage({
                  runId: latest.runId,
                  callId: randomUUID(),
                  purpose: 'summary',
                  usage: callUsageOf(model, usage),
                }),
        },
        repairDanglingToolCalls(messages),
        [],
        [],
        // On request, everything before the latest turn is summarized.
        { force: true, keptTokens: 0 },
      ));
    } catch (error) {
      this.logger.warn({ thread_id: threadId, err: (error as Error).message }, 'thread not compacted');
      return 'failed';
    }
    const { summary } = saved;
    if (compacted === null || summary === undefined) return 'nothing_to_compact';
    const outcome = await this.dataSource.transaction(async (manager): Promise<CompactionOutcome> => {
      await this.threads.lockForRun(manager, { id: threadId, agentSlug: job.agentSlug });
      if ((await this.runs.activeInThread(threadId, manager)).length > 0) return 'not_idle';
      const now = await graph.getState(config);
      if (now.config.configurable?.checkpoint_id !== state.config.configurable?.checkpoint_id)
        return 'changed_meanwhile';
      // Written as the agent node's update: its next step is none, as after a finished run.
      await graph.updateState(
        config,
        { messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...compacted] },
        'agent',
      );
      return 'compacted';
    });
    if (outcome === 'compacted') {
      const { name, text } = summary;
      const workdir = workdirVirtualPath(
        (await this.threads.projectOfThread(threadId)) ?? projectOf(threadId),
      );
      await this.summaries.save(user, workdir, name, text);
    }
    this.logger.log({ thread_id: threadId, outcome }, 'thread compaction');
    return outcome;
  }
}
