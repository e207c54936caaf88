import type { AIMessage } from '@langchain/core/messages';
import type { RunToolContext, ToolExecutor } from '../../../tools/index.js';
import type { OfferedTool } from '../../assembly/run-tool-sources.js';
import type { ToolVisibility, VisibilityContext } from '../../assembly/tool-visibility.js';
import type { RunConfigSnapshot } from '../../assembly/run-config-snapshot.js';
import type { RunEvents } from '../../events/run-events.js';
import type { CheckpointCompanions } from '../../graph/checkpoint-companion.js';
import type { NewRunEvent } from '../../events/run-event.js';
import type { MessagesRepository, NewMessage } from '../../messages/messages.repository.js';
import type { WaitingPoints } from '../../questions/waiting-points.js';
import type { RetryingChatOpenAI } from '../../model/retrying-chat-openai.js';
import type { ModelCallUsage } from '../../usage/model-call-usage.js';
import type { RunStore } from '../../runs/run-store.js';
import type { ContextLimits } from '../../context/context-limits.js';
import type { ToolCaller } from '../../../tools/index.js';

/** Where a compressed history's summary is saved whole (the workspace's `ConversationSummaries`). */
export interface SummaryFiles {
  save(user: ToolCaller, workdir: string, name: string, text: string): Promise<string>;
}

export type ModelToolCall = NonNullable<AIMessage['tool_calls']>[number];

/** Thrown at a safe point once the run was asked to stop (cancel, lost lease, shutdown). */
export class RunStoppedError extends Error {
  constructor() {
    super('the run was stopped');
    this.name = 'RunStoppedError';
  }
}

export interface RunSessionDeps {
  events: RunEvents;
  messages: MessagesRepository;
  executor: ToolExecutor;
  visibility: ToolVisibility;
  /** The checkpointer's saver: a step's last record goes out with the checkpoint after the step. */
  checkpoints: CheckpointCompanions;
  eventFlushMs: number;
  /** Tool calls of one assistant message that are executed; the rest are answered with a tool error. */
  maxToolCallsPerTurn: number;
  /** Records the approved calls that started (a decided call runs at most once). */
  waitingPoints: WaitingPoints;
  summaries: SummaryFiles;
  /** Counts the model calls a run makes besides its agent's steps (a context summary). */
  usage: Pick<RunStore, 'recordModelUsage'>;
}

export interface RunSessionInit {
  runId: string;
  threadId: string;
  leaseToken: string;
  snapshot: RunConfigSnapshot;
  executable: OfferedTool[];
  model: RetryingChatOpenAI;
  /** The model's context window and the estimate above which a request is compressed. */
  context: ContextLimits;
  toolContext: Omit<RunToolContext, 'visibleTools'>;
  signal: AbortSignal;
  /**
   * Whether an earlier claim of this run executed it (a worker lost, a question answered, subagents
   * awaited): only then can results of its tool calls be stored already.
   */
  resumed: boolean;
}

/**
 * What the jobs of one run's session (model call, tool loop, question interrupt) share: the run, its
 * dependencies, what the model was shown last, and the lease-fenced event writes.
 */
export class SessionScope {
  /** What the model was shown in its latest call (null until a call in this session). */
  private visible: ReadonlySet<string> | null = null;
  /** Raw arguments of tool calls the model sent as invalid JSON (refused by the executor's guards). */
  readonly invalidArgs = new Map<string, string>();
  /** Skills activated so far in this thread (from the graph state, plus reads of this session). */
  private readonly activated = new Set<string>();

  constructor(
    readonly deps: RunSessionDeps,
    readonly init: RunSessionInit,
  ) {}

  /** The tools the model may see now (asked again on every model call). */
  async refreshVisibleTools(): Promise<OfferedTool[]> {
    const { snapshot, runId, threadId } = this.init;
    const context: VisibilityContext = { runId, threadId, snapshot, activatedSkills: this.activated };
    const visible = await this.deps.visibility.visible(context, this.init.executable);
    this.visible = new Set(visible.map((tool) => tool.name));
    return visible;
  }

  /** What the latest model call showed; a resumed run re-enters at its tools step and asks now. */
  async visibleToolNames(): Promise<ReadonlySet<string>> {
    if (this.visible === null) await this.refreshVisibleTools();
    return this.visible!;
  }

  activate(slugs: Iterable<string>): void {
    for (const slug of slugs) this.activated.add(slug);
  }

  /** Lease-fenced; with `message`, the run's message these events announce is stored with them. */
  emit(events: NewRunEvent[], message?: NewMessage) {
    const { runId, leaseToken } = this.init;
    return this.deps.events.emit({ runId, events, fence: { leaseToken }, message });
  }

  /**
   * `emit` for the last record of a step (the model's reply, a step's last tool result): it goes out
   * in the statement of the checkpoint LangGraph saves once the step returns, which is written only
   * under the lease (one round trip and one commit for both). Stored at once when another record
   * already waits for that checkpoint.
   */
  async emitWithCheckpoint(
    events: NewRunEvent[],
    message: NewMessage,
    usage?: ModelCallUsage,
  ): Promise<void> {
    const { runId, threadId, leaseToken } = this.init;
    const companion = this.deps.events.checkpointCompanion({ runId, events, leaseToken, message, usage });
    if (!this.deps.checkpoints.attach(threadId, companion)) await companion.storeAlone();
  }

  safePoint(): void {
    if (this.init.signal.aborted) throw new RunStoppedError();
  }
}
