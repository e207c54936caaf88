import { AIMessage, RemoveMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import {
  Annotation,
  Command,
  END,
  interrupt,
  messagesStateReducer,
  REMOVE_ALL_MESSAGES,
  START,
  StateGraph,
} from '@langchain/langgraph';
import type { ApprovalAnswer, ApprovalInterrupt, TurnDecisions } from '../approvals/approval-interrupt.js';
import { installLeanRunnableContext } from './lean-runnable-context.js';

/**
 * The checkpointed state of a thread: its messages, the run that wrote them last, the skills the
 * model activated by reading their SKILL.md (kept across resumes; only ever added to), and the tool
 * approval of the latest turn that needed one (the calls asked about, then the person's decisions).
 */
export const RunState = Annotation.Root({
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  runId: Annotation<string>(),
  activatedSkills: Annotation<string[]>({
    reducer: (current, added) => [...new Set([...current, ...added])],
    default: () => [],
  }),
  approvalRequest: Annotation<ApprovalInterrupt | null>({
    reducer: (_, next) => next,
    default: () => null,
  }),
  approvalDecisions: Annotation<TurnDecisions | null>({
    reducer: (_, next) => next,
    default: () => null,
  }),
});

export type RunStateValues = typeof RunState.State;

/** What the nodes do; implemented per run by `RunSession`. */
export interface AgentSteps {
  /**
   * The model's reply; with `compacted` when the history was compressed for the call (a summary, then
   * the turns kept), which then replaces the state's messages.
   */
  callModel(
    history: BaseMessage[],
    activatedSkills: readonly string[],
  ): Promise<{ reply: AIMessage; compacted: BaseMessage[] | null }>;
  /** The calls of the reply that need a person's decision before any of them runs (null: none). */
  reviewCalls(reply: AIMessage): Promise<ApprovalInterrupt | null>;
  runTools(
    request: AIMessage,
    activatedSkills: readonly string[],
    decisions: TurnDecisions | null,
  ): Promise<{ messages: ToolMessage[]; activatedSkills: string[] }>;
}

const lastAssistant = (messages: BaseMessage[]): AIMessage | null => {
  const last = messages.at(-1);
  return last !== undefined && AIMessage.isInstance(last) ? last : null;
};

/**
 * The agent loop: the model answers; while it asks for tools, they run and the model sees their
 * results. When calls of a turn need a person's decision, the `approve` node waits for it (one
 * interrupt, alone in its node) before any call of the turn runs. Built once per run (the steps close
 * over the run's context); reading a thread never builds it.
 */
export function buildAgentGraph(steps: AgentSteps, checkpointer: BaseCheckpointSaver) {
  installLeanRunnableContext();
  // The agent node routes itself (a Command) rather than through a conditional edge: LangGraph runs an
  // edge's router as one more runnable per step, with its config, callbacks and trace objects.
  const agent = async (state: RunStateValues) => {
    const { reply, compacted } = await steps.callModel(state.messages, state.activatedSkills);
    // A compressed history is checkpointed with the reply: the next step and a resumed run read it.
    const messages =
      compacted === null ? [reply] : [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...compacted, reply];
    if ((reply.tool_calls?.length ?? 0) === 0) return new Command({ update: { messages }, goto: END });
    const request = await steps.reviewCalls(reply);
    if (request === null) return new Command({ update: { messages }, goto: 'tools' });
    return new Command({ update: { messages, approvalRequest: request }, goto: 'approve' });
  };
  // Its interrupt is the node's only one, so a resume value always answers it; its decisions are
  // checkpointed with the node, before any call of the turn runs.
  const approve = (state: RunStateValues) => {
    const request = state.approvalRequest!;
    const answer = interrupt<ApprovalInterrupt, ApprovalAnswer>(request);
    const decisions: TurnDecisions = {
      ...answer,
      request_id: request.request_id,
      point_tool_call_id: request.tool_call_id,
    };
    return new Command({ update: { approvalDecisions: decisions }, goto: 'tools' });
  };
  return new StateGraph(RunState)
    .addNode('agent', agent, { ends: ['approve', 'tools', END] })
    .addNode('approve', approve, { ends: ['tools'] })
    .addNode('tools', async (state) => {
      const request = lastAssistant(state.messages);
      if (request === null) return { messages: [] };
      const decisions = state.approvalDecisions?.request_id === request.id ? state.approvalDecisions : null;
      return steps.runTools(request, state.activatedSkills, decisions);
    })
    .addEdge(START, 'agent')
    .addEdge('tools', 'agent')
    .compile({ checkpointer });
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
