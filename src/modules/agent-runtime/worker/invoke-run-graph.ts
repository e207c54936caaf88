import { HumanMessage } from '@langchain/core/messages';
import { Command, isInterrupted } from '@langchain/langgraph';
import type { AgentGraph, RunStateValues } from '../graph/agent-graph.js';
import type { MessagesRepository } from '../messages/messages.repository.js';
import type { WaitingInterrupt, WaitingPoints } from '../questions/waiting-points.js';
import type { RunEntity } from '../runs/run.entity.js';
import type { RunsRepository } from '../runs/runs.repository.js';
import { RunFailureCodes } from '../runs/runs.errors.js';
import { DomainError } from '../../../common/errors/index.js';
import { summarizedIds } from '../context/summary-message.js';
import { isAwaitInterrupt, type AwaitInterrupt } from './session/subagent-await.js';

/**
 * How the graph stopped: at its end, waiting for the user (questions, or calls to decide), or waiting
 * for its subagent runs.
 */
export type GraphEnd =
  | { kind: 'completed' }
  | { kind: 'waiting'; waiting: WaitingInterrupt }
  | { kind: 'awaiting'; wait: AwaitInterrupt };

export interface GraphRunConfig {
  configurable: { thread_id: string };
  recursionLimit: number;
  signal: AbortSignal;
  durability: 'sync';
}

export interface GraphRunDeps {
  messages: MessagesRepository;
  waitingPoints: WaitingPoints;
  runs: RunsRepository;
  /** The id of the run's user message (the caller may have started reading it already). */
  userMessageId: () => Promise<string>;
}

type GraphState = Awaited<ReturnType<AgentGraph['getState']>>;
type PendingInterrupt = WaitingInterrupt | AwaitInterrupt;

const pendingInterrupt = (state: GraphState): PendingInterrupt | null => {
  for (const task of state.tasks) {
    const value = task.interrupts?.[0]?.value as PendingInterrupt | undefined;
    if (value !== undefined) return value;
  }
  return null;
};

function endOf(pending: PendingInterrupt | null): GraphEnd {
  if (pending === null) return { kind: 'completed' };
  return isAwaitInterrupt(pending)
    ? { kind: 'awaiting', wait: pending }
    : { kind: 'waiting', waiting: pending };
}

/** How an invocation stopped, from what it returned (an interrupt comes back with the last values). */
function endOfInvocation(output: unknown): GraphEnd {
  if (!isInterrupted<PendingInterrupt>(output)) return { kind: 'completed' };
  return endOf(output.__interrupt__.find((interrupt) => interrupt.value !== undefined)?.value ?? null);
}

/**
 * Runs the thread's graph for this run. The checkpoint names the run that wrote it: a run found there
 * with work pending continues from it (with the answers or decisions, if it stopped for the user;
 * woken, if it waited for its subagent runs); a run that had finished its graph is done; any other run
 * starts with its user message.
 */
export async function invokeRunGraph(
  graph: AgentGraph,
  run: RunEntity,
  config: GraphRunConfig,
  deps: GraphRunDeps,
): Promise<GraphEnd> {
  // A first execution cannot be in the checkpoint (only an execution of this run writes its id there,
  // and every execution follows a claim that counts an attempt): it starts without reading it.
  if (run.attempts > 1) {
    const resumed = await resumeFromCheckpoint(graph, run, config, deps);
    if (resumed !== null) return resumed;
  }
  const userMessageId = await deps.userMessageId();
  return endOfInvocation(
    await graph.invoke(
      { messages: [new HumanMessage({ id: userMessageId, content: run.input })], runId: run.id },
      config,
    ),
  );
}

/** A run found in the checkpoint continues from it; null when the checkpoint is another run's. */
async function resumeFromCheckpoint(
  graph: AgentGraph,
  run: RunEntity,
  config: GraphRunConfig,
  deps: GraphRunDeps,
): Promise<GraphEnd | null> {
  const state = await graph.getState(config);
  const values = state.values as Partial<RunStateValues>;
  if (values.runId !== run.id) return null;
  if (state.next.length === 0) return { kind: 'completed' };
  // Assistant messages of a model call the checkpoint never recorded are made again (those a summary
  // in the checkpoint replaced were recorded).
  await deps.messages.deleteUncheckpointedAssistant(run.id, summarizedIds(values.messages ?? []));
  const pending = pendingInterrupt(state);
  if (pending === null) return endOfInvocation(await graph.invoke(null, config));
  if (isAwaitInterrupt(pending)) {
    // Re-queued by a lost worker while children still run, before the deadline: it parks again.
    if (Date.parse(pending.until) > Date.now() && (await deps.runs.anyActive(pending.run_ids)))
      return { kind: 'awaiting', wait: pending };
    // Its children ended or its deadline passed: the awaits are checked again as the node re-runs.
    return endOfInvocation(await graph.invoke(new Command({ resume: { woken: true } }), config));
  }
  const answers = await deps.waitingPoints.answersFor(run.id, pending.tool_call_id);
  if (answers === null)
    throw new DomainError(
      'internal',
      RunFailureCodes.internal,
      'The run resumed without the answers it waits for.',
    );
  return endOfInvocation(await graph.invoke(new Command({ resume: answers }), config));
}
