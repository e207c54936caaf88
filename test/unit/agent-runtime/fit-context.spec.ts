import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type BaseMessage,
} from '@langchain/core/messages';
import { fitContext, type ContextFitPorts } from '../../../src/modules/agent-runtime/context/fit-context';
import { isSummaryMessage } from '../../../src/modules/agent-runtime/context/summary-message';
import type { NewRunEvent } from '../../../src/modules/agent-runtime/events/run-event';
import type { RetryingChatOpenAI } from '../../../src/modules/agent-runtime/model/retrying-chat-openai';

/** A model (heuristic counting: its name is not OpenAI's) whose summary calls are recorded. */
function fakeModel(answer: () => Promise<string>) {
  const calls: BaseMessage[][] = [];
  const model = {
    model: 'local-model',
    streamTurn: async (messages: BaseMessage[]) => {
      calls.push(messages);
      return {
        content: await answer(),
        toolCalls: [],
        invalidToolCalls: [],
        usage: { input_tokens: 9, output_tokens: 3, total_tokens: 12 },
      };
    },
  } as unknown as RetryingChatOpenAI;
  return { model, calls };
}

function portsOf(model: RetryingChatOpenAI, windowTokens: number) {
  const events: NewRunEvent[] = [];
  const files: string[] = [];
  const summaryCalls: unknown[] = [];
  const ports: ContextFitPorts = {
    model,
    context: { windowTokens, compressAboveTokens: Math.floor(windowTokens * 0.8) },
    signal: new AbortController().signal,
    runId: 'run-1',
    emit: (added) => Promise.resolve(events.push(...added)),
    saveSummary: (_name, text) => Promise.resolve(files.push(text)),
    recordSummaryCall: (usage) => Promise.resolve(summaryCalls.push(usage)),
  };
  return { ports, events, files, summaryCalls };
}

const words = (n: number) => 'word '.repeat(n).trim();
/** Turns of about 260 heuristic tokens each, with a tool call and its result. */
function history(turns: number, resultChars = 300): BaseMessage[] {
  const messages: BaseMessage[] = [];
  for (let t = 0; t < turns; t++)
    messages.push(
      new HumanMessage({ id: `u${t}`, content: `turn ${t} ${words(60)}` }),
      new AIMessage({
        id: `a${t}`,
        content: '',
        tool_calls: [{ id: `c${t}`, name: 'read', args: {}, type: 'tool_call' }],
      }),
      new ToolMessage({ id: `t${t}`, content: 'r'.repeat(resultChars), tool_call_id: `c${t}`, name: 'read' }),
      new AIMessage({ id: `r${t}`, content: `answer ${t}` }),
    );
  return messages;
}

describe('fitContext', () => {
  it('sends a request under the threshold as it is, without a model call', async () => {
    const { model, calls } = fakeModel(() => Promise.resolve('S'));
    const { ports, events } = portsOf(model, 100_000);
    const messages = history(3);
    const fitted = await fitContext(ports, messages, [], [], { force: false });
    expect(fitted.shown).toBe(messages);
    expect(fitted.compacted).toBeNull();
    expect(calls).toHaveLength(0);
    expect(events).toHaveLength(0);
  });

  it('summarizes the oldest turns, reports it, saves the text and counts the summary call', async () => {
    const { model, calls } = fakeModel(() => Promise.resolve('the summary'));
    const { ports, events, files, summaryCalls } = portsOf(model, 1000);
    const messages = history(8);
    const fitted = await fitContext(ports, messages, [new SystemMessage('be brief')], [], { force: false });
    expect(calls).toHaveLength(1);
    const compacted = fitted.compacted!;
    expect(isSummaryMessage(compacted[0])).toBe(true);
    expect(compacted.at(-1)).toBe(messages.at(-1));
    expect(compacted).toContain(messages[messages.length - 4]); // the latest user message, verbatim
    expect(summaryCalls).toEqual([{ input_tokens: 9, output_tokens: 3, total_tokens: 12 }]);
    expect(files).toEqual(['the summary']);
    expect(events.map((e) => e.payload.status)).toEqual(['started', 'completed']);
    expect(events[1].payload.tokens_after as number).toBeLessThan(events[1].payload.tokens_before as number);
    expect(events[1].payload.tokens_after as number).toBeLessThanOrEqual(800);
  });

  it('goes on uncompressed when the summary fails and the request fits the window', async () => {
    const { model } = fakeModel(() => Promise.reject(new Error('model down')));
    const messages = history(7);
    const { ports, events, files, summaryCalls } = portsOf(model, 2000);
    const fitted = await fitContext(ports, messages, [], [], { force: false });
    expect(fitted.compacted).toBeNull();
    expect(fitted.shown).toBe(messages);
    expect(events.map((e) => e.payload.status)).toEqual(['started', 'failed']);
    expect(files).toEqual([]);
    expect(summaryCalls).toEqual([]);
  });

  it('fails with runs.context_overflow when the summary fails and the request does not fit', async () => {
    const { model } = fakeModel(() => Promise.reject(new Error('model down')));
    const { ports } = portsOf(model, 600);
    await expect(fitContext(ports, history(8), [], [], { force: false })).rejects.toMatchObject({
      code: 'runs.context_overflow',
      details: { window_tokens: 600, model: 'local-model' },
    });
  });

  it('summarizes when forced (the provider refused), whatever the estimate', async () => {
    const { model, calls } = fakeModel(() => Promise.resolve('forced summary'));
    const { ports } = portsOf(model, 100_000);
    const fitted = await fitContext(ports, history(3), [], [], { force: true });
    expect(calls).toHaveLength(1);
    expect(isSummaryMessage(fitted.compacted![0])).toBe(true);
  });

  it('makes no summary on every step when the system prompt alone passes the threshold', async () => {
    const { model, calls } = fakeModel(() => Promise.resolve('S'));
    const { ports } = portsOf(model, 6000);
    const system = [new SystemMessage(words(2700))];
    const fitted = await fitContext(ports, history(1), system, [], { force: false });
    expect(calls).toHaveLength(0);
    expect(fitted.compacted).toBeNull();
  });
});
