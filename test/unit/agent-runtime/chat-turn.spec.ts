import {
  AIMessage,
  HumanMessage,
  SystemMessage,
  ToolMessage,
  type AIMessageChunk,
  type BaseMessage,
} from '@langchain/core/messages';
import { DEFAULT_MODEL_RETRY_OPTIONS } from '../../../src/modules/agent-runtime/model/model-retry-policy';
import {
  RetryingChatOpenAI,
  type FunctionTool,
} from '../../../src/modules/agent-runtime/model/retrying-chat-openai';
import { callUsageOf } from '../../../src/modules/agent-runtime/usage/model-call-usage';

const TOOLS: FunctionTool[] = [
  {
    type: 'function',
    function: {
      name: 'write_file',
      description: 'Writes a file.',
      parameters: { type: 'object', properties: { file_path: { type: 'string' } }, required: ['file_path'] },
    },
  },
  { type: 'function', function: { name: 'read_file', description: 'Reads a file.', parameters: {} } },
];

const HISTORY: BaseMessage[] = [
  new SystemMessage('You are terse.'),
  new HumanMessage({ id: 'u-1', content: 'Write it.' }),
  new AIMessage({
    id: 'a-1',
    content: '',
    tool_calls: [{ id: 'call_1', name: 'write_file', args: { file_path: 'a.md' } }],
  }),
  new ToolMessage({
    id: 't-1',
    content: 'ok',
    tool_call_id: 'call_1',
    name: 'write_file',
    status: 'success',
  }),
  new AIMessage({ id: 'a-2', content: 'Done, and read?' }),
  new HumanMessage({ id: 'u-2', content: 'Yes.' }),
];

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 0, model: 'm' };
const delta = (d: object, finish: string | null = null) => ({
  ...base,
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});
const call = (index: number, fields: { id?: string; name?: string; args?: string }) => ({
  tool_calls: [
    {
      index,
      ...(fields.id === undefined ? {} : { id: fields.id, type: 'function' }),
      function: {
        ...(fields.name === undefined ? {} : { name: fields.name }),
        ...(fields.args === undefined ? {} : { arguments: fields.args }),
      },
    },
  ],
});

/** Streamed answers as providers send them. */
const STREAMS: Record<string, object[]> = {
  'text in pieces, then usage in a chunk without choices': [
    delta({ role: 'assistant', content: '' }),
    delta({ content: 'Hel' }),
    delta({ content: 'lo, ' }),
    delta({ content: 'there.' }),
    delta({}, 'stop'),
    { ...base, choices: [], usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 } },
  ],
  'usage with token details': [
    delta({ role: 'assistant', content: 'ok' }, 'stop'),
    {
      ...base,
      choices: [],
      usage: {
        prompt_tokens: 20,
        completion_tokens: 5,
        total_tokens: 25,
        prompt_tokens_details: { cached_tokens: 12, audio_tokens: null },
        completion_tokens_details: { reasoning_tokens: 3 },
      },
    },
  ],
  'two tool calls, arguments and names split, the id sent once': [
    delta({ role: 'assistant', content: null }),
    delta(call(0, { id: 'call_a', name: 'write', args: '' })),
    delta(call(0, { name: '_file', args: '{"file_' })),
    delta(call(0, { args: 'path": "x.md"}' })),
    delta(call(1, { id: 'call_b', name: 'read_file', args: '{}' })),
    delta({}, 'tool_calls'),
  ],
  'the id repeated in every chunk of a call': [
    delta({ role: 'assistant', content: 'Let me write. ' }),
    delta(call(0, { id: 'call_r', name: 'write_file', args: '{"file_path":' })),
    delta(call(0, { id: 'call_r', args: '"y.md"}' })),
    delta({}, 'tool_calls'),
  ],
  'arguments that are not JSON, and a call without arguments': [
    delta({ role: 'assistant' }),
    delta(call(0, { id: 'call_bad', name: 'write_file', args: '{"file_path": "z.md", oops' })),
    delta(call(1, { id: 'call_none', name: 'read_file' })),
    delta(call(2, { id: 'call_list', name: 'read_file', args: '[1, 2]' })),
    delta({}, 'tool_calls'),
  ],
  'no role at all, and a chunk without a delta': [
    { ...base, choices: [{ index: 0, finish_reason: null }] },
    delta({ content: 'plain' }),
    delta({}, 'stop'),
  ],
};

async function* streamOf(chunks: object[]) {
  for (const chunk of chunks) yield await Promise.resolve(chunk);
}

/** A model whose HTTP call is replaced by `chunks`; what it was asked is recorded. */
function modelAnswering(chunks: object[]) {
  const model = new RetryingChatOpenAI({
    model: 'm',
    apiKey: 'k',
    configuration: { baseURL: 'http://127.0.0.1:9/v1' },
    streaming: true,
    streamUsage: true,
    retry: DEFAULT_MODEL_RETRY_OPTIONS,
  });
  const requests: unknown[] = [];
  model.completionWithRetry = ((request: unknown) => {
    requests.push(request);
    return Promise.resolve(streamOf(chunks));
  }) as never;
  return { model, requests };
}

describe('RetryingChatOpenAI.streamTurn', () => {
  for (const [name, chunks] of Object.entries(STREAMS))
    it(`reads what LangChain's stream reads: ${name}`, async () => {
      const viaLangChain = modelAnswering(chunks);
      let full: AIMessageChunk | undefined;
      const pieces: string[] = [];
      for await (const chunk of await viaLangChain.model.bindTools(TOOLS).stream(HISTORY)) {
        full = full === undefined ? chunk : full.concat(chunk);
        if (typeof chunk.content === 'string' && chunk.content !== '') pieces.push(chunk.content);
      }

      const ours = modelAnswering(chunks);
      const texts: string[] = [];
      const turn = await ours.model.streamTurn(HISTORY, TOOLS, { onText: (text) => texts.push(text) });

      expect(ours.requests).toEqual(viaLangChain.requests);
      expect(texts).toEqual(pieces);
      expect(turn.content).toBe(full!.content);
      // A stream that never names its role is no AIMessageChunk for LangChain: no tool calls either way.
      expect(turn.toolCalls).toEqual(full!.tool_calls ?? []);
      expect(turn.invalidToolCalls).toEqual(full!.invalid_tool_calls ?? []);
      expect(turn.usage).toEqual(full!.usage_metadata);
    });

  it('sends the request the bound model sends: messages, tools, streaming with usage', async () => {
    const { model, requests } = modelAnswering(
      STREAMS['text in pieces, then usage in a chunk without choices'],
    );
    await model.streamTurn(HISTORY, TOOLS, { onText: () => undefined });
    expect(requests[0]).toMatchObject({
      model: 'm',
      stream: true,
      stream_options: { include_usage: true },
      tools: TOOLS,
      messages: [
        { role: 'system', content: 'You are terse.' },
        { role: 'user', content: 'Write it.' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'write_file', arguments: '{"file_path":"a.md"}' },
            },
          ],
        },
        { role: 'tool', content: 'ok', tool_call_id: 'call_1', name: 'write_file' },
        { role: 'assistant', content: 'Done, and read?' },
        { role: 'user', content: 'Yes.' },
      ],
    });
    // No tools bound: none shown.
    const bare = modelAnswering(STREAMS['usage with token details']);
    await bare.model.streamTurn(HISTORY, [], { onText: () => undefined });
    expect((bare.requests[0] as { tools?: unknown }).tools).toBeUndefined();
  });

  it('stops reading once the signal is aborted and throws its reason', async () => {
    const { model } = modelAnswering(STREAMS['text in pieces, then usage in a chunk without choices']);
    const controller = new AbortController();
    const texts: string[] = [];
    const read = model.streamTurn(HISTORY, TOOLS, {
      signal: controller.signal,
      onText: (text) => {
        texts.push(text);
        controller.abort(new Error('cancelled by the user'));
      },
    });
    await expect(read).rejects.toThrow('cancelled by the user');
    expect(texts).toEqual(['Hel']);
  });
});

describe("a model call's usage row (callUsageOf)", () => {
  it('takes input, output and cached tokens (prompt_tokens_details.cached_tokens) from the streamed answer', async () => {
    const { model } = modelAnswering(STREAMS['usage with token details']);
    const turn = await model.streamTurn(HISTORY, [], { onText: () => undefined });
    expect(callUsageOf('gpt-x', turn.usage)).toEqual({
      model: 'gpt-x',
      input_tokens: 20,
      output_tokens: 5,
      cached_tokens: 12,
    });
  });

  it('counts 0 cached tokens when the provider gives no details, and a call without usage as 0 tokens', async () => {
    const { model } = modelAnswering(STREAMS['text in pieces, then usage in a chunk without choices']);
    const turn = await model.streamTurn(HISTORY, [], { onText: () => undefined });
    expect(callUsageOf('m', turn.usage)).toEqual({
      model: 'm',
      input_tokens: 11,
      output_tokens: 7,
      cached_tokens: 0,
    });
    const silent = modelAnswering(STREAMS['two tool calls, arguments and names split, the id sent once']);
    const noUsage = await silent.model.streamTurn(HISTORY, TOOLS, { onText: () => undefined });
    expect(noUsage.usage).toBeUndefined();
    expect(callUsageOf('m', noUsage.usage)).toEqual({
      model: 'm',
      input_tokens: 0,
      output_tokens: 0,
      cached_tokens: 0,
    });
  });
});
