import { AIMessageChunk, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { z } from 'zod';
import { FakeOpenAiServer } from '../../../support/fake-openai/fake-openai-server';
import { factoryFor, TEST_API_KEY } from './chat-model-against-fake';

describe('chat model against an OpenAI-compatible endpoint', () => {
  let fake: FakeOpenAiServer;
  beforeEach(async () => (fake = await FakeOpenAiServer.start()));
  afterEach(() => fake.close());

  it('streams a text reply as chunks that add up to the final message', async () => {
    fake.script({ text: 'Hello from the fake model.' });
    const model = factoryFor(fake).create();
    const chunks: AIMessageChunk[] = [];
    for await (const chunk of await model.stream([new HumanMessage('hi')])) chunks.push(chunk);
    const texts = chunks.map((c) => c.text).filter((t) => t !== '');
    expect(texts.length).toBeGreaterThan(3);
    const final = chunks.reduce((a, b) => a.concat(b));
    expect(final.text).toBe('Hello from the fake model.');
    expect(final.usage_metadata).toMatchObject({ input_tokens: 11, output_tokens: 7, total_tokens: 18 });
    const [request] = fake.requests;
    expect(request.body).toMatchObject({
      model: 'fake-default',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(request.headers.authorization).toBe(`Bearer ${TEST_API_KEY}`);
  });

  it('uses the model named per call instead of the default', async () => {
    fake.script({ text: 'ok' });
    const reply = await factoryFor(fake).create({ model: 'other-model' }).invoke('hi');
    expect(reply.text).toBe('ok');
    expect(fake.requests[0].body.model).toBe('other-model');
  });

  it('assembles a tool call whose arguments arrive split across chunks', async () => {
    const args = { path: 'notes/today.md', limit: 20, tags: ['a', 'b'] };
    fake.script({ toolCalls: [{ id: 'call_abc', name: 'read_file', args }] });
    const reply = await factoryFor(fake).create().invoke('read it');
    expect(reply.tool_calls).toEqual([{ id: 'call_abc', name: 'read_file', args, type: 'tool_call' }]);
    expect(reply.response_metadata.finish_reason).toBe('tool_calls');
  });

  it('shows the model the bound tools as OpenAI tools, and tool results with their call id', async () => {
    const readFile = tool(() => 'contents', {
      name: 'read_file',
      description: 'Reads a file of the workspace.',
      schema: z.object({ path: z.string().describe('Workspace path'), limit: z.number().int().optional() }),
    });
    fake.script(
      { toolCalls: [{ id: 'call_1', name: 'read_file', args: { path: 'a.md' } }] },
      { text: 'Done.' },
    );
    const model = factoryFor(fake).create().bindTools([readFile]);

    const first = await model.invoke([new HumanMessage('read a.md')]);
    const result = new ToolMessage({ content: 'contents', tool_call_id: first.tool_calls![0].id! });
    const second = await model.invoke([new HumanMessage('read a.md'), first, result]);

    expect(second.text).toBe('Done.');
    const [shown] = fake.requests[0].body.tools!;
    expect(shown).toMatchObject({
      type: 'function',
      function: {
        name: 'read_file',
        description: 'Reads a file of the workspace.',
        parameters: {
          type: 'object',
          properties: { path: { type: 'string', description: 'Workspace path' }, limit: { type: 'integer' } },
          required: ['path'],
        },
      },
    });
    const messages = fake.requests[1].body.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(messages[1].tool_calls).toEqual([
      { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } },
    ]);
    expect(messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_1', content: 'contents' });
  });
});
