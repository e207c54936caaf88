import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { Command, END, interrupt, MemorySaver, START, StateGraph } from '@langchain/langgraph';
import {
  buildAgentGraph,
  RunState,
  type AgentSteps,
} from '../../../src/modules/agent-runtime/graph/agent-graph';

/** The agent's steps: one tool call, then an answer; the tool waits for a human (an interrupt). */
function steps(models: BaseMessage[][]): AgentSteps {
  return {
    callModel: (history) => {
      models.push(history);
      const asked = history.some((message) => AIMessage.isInstance(message));
      return Promise.resolve({
        reply: asked
          ? new AIMessage({ id: 'a-2', content: 'done' })
          : new AIMessage({
              id: 'a-1',
              content: '',
              tool_calls: [{ id: 'call-1', name: 'ask', args: {}, type: 'tool_call' }],
            }),
        compacted: null,
      });
    },
    reviewCalls: () => Promise.resolve(null),
    runTools: (request) => {
      const answer = interrupt<string, string>('go on?');
      const call = request.tool_calls![0];
      return Promise.resolve({
        messages: [new ToolMessage({ id: 't-1', content: answer, tool_call_id: call.id!, name: call.name })],
        activatedSkills: [],
      });
    },
  };
}

/** The graph as released before the agent node routed itself: the same nodes, a conditional edge. */
function routedByEdge(agent: AgentSteps, saver: MemorySaver) {
  const last = (messages: BaseMessage[]) => messages.at(-1) as AIMessage;
  return new StateGraph(RunState)
    .addNode('agent', async (state) => ({
      messages: [(await agent.callModel(state.messages, state.activatedSkills)).reply],
    }))
    .addNode('tools', (state) => agent.runTools(last(state.messages), state.activatedSkills, null))
    .addEdge(START, 'agent')
    .addConditionalEdges(
      'agent',
      (state) => ((last(state.messages).tool_calls?.length ?? 0) > 0 ? 'tools' : END),
      ['tools', END],
    )
    .addEdge('tools', 'agent')
    .compile({ checkpointer: saver });
}

describe('agent graph upgrade', () => {
  it('resumes a run parked by the graph routed by an edge (an open waiting point across a release)', async () => {
    const saver = new MemorySaver();
    const config = { configurable: { thread_id: 'thread-1' } };
    const before: BaseMessage[][] = [];
    await routedByEdge(steps(before), saver).invoke(
      { messages: [new HumanMessage('hi')], runId: 'r' },
      config,
    );
    expect(before).toHaveLength(1);

    const after: BaseMessage[][] = [];
    const current = buildAgentGraph(steps(after), saver);
    expect((await current.getState(config)).next).toEqual(['tools']);
    const end = await current.invoke(new Command({ resume: 'yes' }), config);
    expect(after).toHaveLength(1);
    expect(end.messages.map((message: BaseMessage) => [message.getType(), message.content])).toEqual([
      ['human', 'hi'],
      ['ai', ''],
      ['tool', 'yes'],
      ['ai', 'done'],
    ]);
    expect((await current.getState(config)).next).toEqual([]);
  });
});
