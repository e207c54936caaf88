import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { repairDanglingToolCalls } from '../../../src/modules/agent-runtime/graph/repair-history';

const call = (id: string, name = 'read_file') => ({
  id,
  name,
  args: { file_path: `${id}.md` },
  type: 'tool_call' as const,
});
const ask = (...ids: string[]) => new AIMessage({ content: '', tool_calls: ids.map((id) => call(id)) });
const answer = (id: string, content = `result of ${id}`) =>
  new ToolMessage({ content, tool_call_id: id, name: 'read_file' });

const textOf = (m: BaseMessage) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content));

/** A compact view: role and, for tool messages, the call they answer and whether it was interrupted. */
function shape(messages: BaseMessage[]): string[] {
  return messages.map((m) => {
    if (ToolMessage.isInstance(m))
      return `tool:${m.tool_call_id}${textOf(m).includes('runs.tool_call_interrupted') ? '!' : ''}`;
    if (AIMessage.isInstance(m)) return `ai:${(m.tool_calls ?? []).map((c) => c.id).join(',')}`;
    return `human:${textOf(m)}`;
  });
}

describe('repairDanglingToolCalls', () => {
  it('returns a history without tool calls unchanged (same messages, same order)', () => {
    const history = [new HumanMessage('hi'), new AIMessage('hello'), new HumanMessage('bye')];
    const repaired = repairDanglingToolCalls(history);
    expect(repaired).toHaveLength(3);
    repaired.forEach((m, i) => expect(m).toBe(history[i]));
  });

  it('leaves fully answered tool requests unchanged', () => {
    const history = [new HumanMessage('q'), ask('a', 'b'), answer('a'), answer('b'), new AIMessage('done')];
    const repaired = repairDanglingToolCalls(history);
    repaired.forEach((m, i) => expect(m).toBe(history[i]));
    expect(repaired).toHaveLength(history.length);
  });

  it('answers a call left without result at the end of the history as interrupted', () => {
    const history = [new HumanMessage('q'), ask('a')];
    const repaired = repairDanglingToolCalls(history);
    expect(shape(repaired)).toEqual(['human:q', 'ai:a', 'tool:a!']);
    const added = repaired[2] as ToolMessage;
    expect(added.tool_call_id).toBe('a');
    expect(added.name).toBe('read_file');
    expect(added.status).toBe('error');
    expect(JSON.parse(textOf(added))).toEqual({
      error: { code: 'runs.tool_call_interrupted', message: expect.any(String) },
    });
  });

  it('puts the interrupted answers right after the request and its real answers, before what follows', () => {
    const history = [ask('a', 'b', 'c'), answer('b'), new HumanMessage('next run'), new AIMessage('ok')];
    expect(shape(repairDanglingToolCalls(history))).toEqual([
      'ai:a,b,c',
      'tool:b',
      'tool:a!',
      'tool:c!',
      'human:next run',
      'ai:',
    ]);
  });

  it('repairs every dangling request of a long thread, each in place', () => {
    const history = [
      new HumanMessage('1'),
      ask('x'),
      new HumanMessage('2'),
      ask('y', 'z'),
      answer('z'),
      new AIMessage('text'),
      new HumanMessage('3'),
      ask('w'),
    ];
    const repaired = repairDanglingToolCalls(history);
    expect(shape(repaired)).toEqual([
      'human:1',
      'ai:x',
      'tool:x!',
      'human:2',
      'ai:y,z',
      'tool:z',
      'tool:y!',
      'ai:',
      'human:3',
      'ai:w',
      'tool:w!',
    ]);
    // Every call is answered exactly once.
    const answers = repaired
      .filter((m) => ToolMessage.isInstance(m))
      .map((m) => (m as ToolMessage).tool_call_id);
    expect(answers.sort()).toEqual(['w', 'x', 'y', 'z']);
  });

  it('keeps real answers (content included) and does not modify the given history', () => {
    const history = [ask('a', 'b'), answer('a', 'the real content')];
    const copy = [...history];
    const repaired = repairDanglingToolCalls(history);
    expect(history).toEqual(copy);
    expect(history).toHaveLength(2);
    expect((repaired[1] as ToolMessage).content).toBe('the real content');
    expect(shape(repaired)).toEqual(['ai:a,b', 'tool:a', 'tool:b!']);
  });
});
