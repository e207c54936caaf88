import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { chooseCut, historyUnits, splitAt } from '../../../src/modules/agent-runtime/context/history-units';
import { withShortOldResults } from '../../../src/modules/agent-runtime/context/request-view';
import {
  isSummaryMessage,
  summarizedIds,
  summaryMessage,
} from '../../../src/modules/agent-runtime/context/summary-message';

const user = (id: string) => new HumanMessage({ id, content: `user ${id}` });
const ask = (id: string, ...calls: string[]) =>
  new AIMessage({
    id,
    content: '',
    tool_calls: calls.map((call) => ({ id: call, name: 'read_file', args: {}, type: 'tool_call' as const })),
  });
const result = (id: string, call: string, content = `result ${call}`) =>
  new ToolMessage({ id, content, tool_call_id: call, name: 'read_file' });
const reply = (id: string) => new AIMessage({ id, content: `reply ${id}` });

const ids = (messages: BaseMessage[]) => messages.map((m) => m.id);
const unitIds = (units: BaseMessage[][]) => units.map(ids);

/** Two turns, the first with a two-call request, the second with one call. */
const history = () => [
  user('u1'),
  ask('a1', 'c1', 'c2'),
  result('t1', 'c1'),
  result('t2', 'c2'),
  reply('r1'),
  user('u2'),
  ask('a2', 'c3'),
  result('t3', 'c3'),
];

describe('splitting a history for a summary', () => {
  it('keeps a tool request with its results in one unit', () => {
    expect(unitIds(historyUnits(history()))).toEqual([
      ['u1'],
      ['a1', 't1', 't2'],
      ['r1'],
      ['u2'],
      ['a2', 't3'],
    ]);
  });

  it('never cuts between a call and its result, at any cut', () => {
    const units = historyUnits(history());
    for (let cut = 1; cut < units.length; cut++) {
      const split = splitAt(units, cut);
      const summarized = split.summarized.flat();
      const kept = [...(split.latestUser === null ? [] : [split.latestUser]), ...split.kept.flat()];
      for (const part of [summarized, kept]) {
        const asked = new Set(
          part.flatMap((m) => (AIMessage.isInstance(m) ? m.tool_calls!.map((c) => c.id) : [])),
        );
        const answered = new Set(part.filter((m) => ToolMessage.isInstance(m)).map((m) => m.tool_call_id));
        expect([...asked].sort()).toEqual([...answered].sort());
      }
      expect(ids([...summarized, ...kept]).sort()).toEqual(ids(history()).sort());
    }
  });

  it('keeps the latest user message verbatim when the cut passes it', () => {
    const units = historyUnits(history());
    const split = splitAt(units, 4);
    expect(split.latestUser?.id).toBe('u2');
    expect(split.latestUser?.content).toBe('user u2');
    expect(ids(split.summarized.flat())).toEqual(['u1', 'a1', 't1', 't2', 'r1']);
    expect(unitIds(split.kept)).toEqual([['a2', 't3']]);
  });

  it('always keeps the last unit, and cuts no further than the budget needs', () => {
    const units = historyUnits(history());
    const size = (unit: readonly BaseMessage[]) => unit.length * 10;
    expect(chooseCut(units, size, 1000)).toBe(1); // everything fits: the least is summarized
    expect(chooseCut(units, size, 30)).toBe(3); // u2 + a2,t3 stay
    expect(chooseCut(units, size, 0)).toBe(4); // only the last unit stays
    expect(chooseCut([[user('u1')]], size, 0)).toBeNull();
    // A history of the latest user message and one unit has nothing to summarize.
    expect(chooseCut(historyUnits([user('u1'), ask('a1', 'c1'), result('t1', 'c1')]), size, 0)).toBeNull();
  });

  it('makes a summary that stands for every message it replaced, earlier summaries included', () => {
    const first = summaryMessage('first', [user('u1'), reply('r1')], 'run-1');
    const second = summaryMessage('second', [first, user('u2')], 'run-2');
    expect(isSummaryMessage(second)).toBe(true);
    expect(isSummaryMessage(user('u3'))).toBe(false);
    expect(summarizedIds([second, user('u3')])).toEqual(['u1', 'r1', 'u2', 'u3']);
    expect(historyUnits([second, user('u3')])).toHaveLength(2);
  });

  it('shortens only long tool results before the latest user message, the same preview each time', () => {
    const long = 'x'.repeat(5000);
    const messages = [
      user('u1'),
      ask('a1', 'c1'),
      result('t1', 'c1', long),
      user('u2'),
      ask('a2', 'c2'),
      result('t2', 'c2', long),
    ];
    const shown = withShortOldResults(messages)!;
    expect(ids(shown)).toEqual(ids(messages));
    expect((shown[2].content as string).length).toBeLessThan(1200);
    expect((shown[2] as ToolMessage).tool_call_id).toBe('c1');
    expect(shown[5]).toBe(messages[5]);
    expect(withShortOldResults(messages)![2]).toBe(shown[2]);
    expect(withShortOldResults(messages.slice(0, 3))).toBeNull();
  });
});
