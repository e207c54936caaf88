import { AIMessage, type BaseMessage, type ToolMessage } from '@langchain/core/messages';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { Annotation, Command, END, messagesStateReducer, START, StateGraph } from '@langchain/langgraph';

/**
 * The checkpointed state of a thread: its messages, the run that wrote them last, and the skills the
 * model activated by reading their SKILL.md (kept across resumes; only ever added to).
 */
export const RunState = Annotation.Root({
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  runId: Annotation<string>(),
  activatedSkills: Annotation<string[]>({
    reducer: (current, added) => [...new Set([...current, ...added])],
    default: () => [],
  }),
});

export type RunStateValues = typeof RunState.State;

/** What the two nodes do; implemented per run by `RunSession`. */
export interface AgentSteps {
  callModel(history: BaseMessage[], activatedSkills: readonly string[]): Promise<AIMessage>;
  runTools(
    request: AIMessage,
    activatedSkills: readonly string[],
  ): Promise<{ messages: ToolMessage[]; activatedSkills: string[] }>;
}

const lastAssistant = (messages: BaseMessage[]): AIMessage | null => {
  const last = messages.at(-1);
  return last !== undefined && AIMessage.isInstance(last) ? last : null;
};

/**
 * The agent loop: the model answers; while it asks for tools, they run and the model sees their
 * results. Built once per run (the steps close over the run's context); reading a thread never builds it.
 */
export function buildAgentGraph(steps: AgentSteps, checkpointer: BaseCheckpointSaver) {
  // The agent node routes itself (a Command) rather than through a conditional edge: LangGraph runs an
  // edge's router as one more runnable per step, with its config, callbacks and trace objects.
  const agent = async (state: RunStateValues) => {
    const reply = await steps.callModel(state.messages, state.activatedSkills);
    return new Command({
      update: { messages: [reply] },
      goto: (reply.tool_calls?.length ?? 0) > 0 ? 'tools' : END,
    });
  };
  return new StateGraph(RunState)
    .addNode('agent', agent, { ends: ['tools', END] })
    .addNode('tools', async (state) => {
      const request = lastAssistant(state.messages);
      if (request === null) return { messages: [] };
      return steps.runTools(request, state.activatedSkills);
    })
    .addEdge(START, 'agent')
    .addEdge('tools', 'agent')
    .compile({ checkpointer });
}

export type AgentGraph = ReturnType<typeof buildAgentGraph>;
