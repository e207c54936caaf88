import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { summarize } from '../../../../src/modules/agent-runtime/context/summarizer';
import { setContentCapture } from '../../../../src/observability/tracing';
import { FakeOpenAiServer } from '../../../support/fake-openai/fake-openai-server';
import { allAttributeText, InMemoryTracing } from '../../../support/tracing/in-memory-tracing';
import { factoryFor } from './chat-model-against-fake';

const fastRetry = { baseDelayMs: 20, maxDelayMs: 2_000, maxTotalWaitMs: 5_000 };
const PROMPT_MARK = 'zebra-prompt-7f3c';
const ANSWER_MARK = 'okapi-answer-91d2';

describe('model call spans', () => {
  let tracing: InMemoryTracing;
  let fake: FakeOpenAiServer;

  beforeAll(() => {
    tracing = InMemoryTracing.start();
  });
  afterAll(() => tracing.stop());
  beforeEach(async () => {
    tracing.reset();
    fake = await FakeOpenAiServer.start();
  });
  afterEach(async () => {
    setContentCapture(false);
    await fake.close();
  });

  const turnOf = (model = factoryFor(fake, { retry: fastRetry }).create({ model: 'gpt-traced' })) =>
    model.streamTurn(
      [new SystemMessage('be brief'), new HumanMessage(`say ${PROMPT_MARK}`)],
      [{ type: 'function', function: { name: 'lookup', description: 'd', parameters: { type: 'object' } } }],
      { onText: () => undefined },
    );

  it('is a GenAI client span with the usage, finish reason and model the answer reported', async () => {
    fake.script({
      toolCalls: [{ id: 'c1', name: 'lookup', args: { q: 1 } }],
      usage: { prompt_tokens: 321, completion_tokens: 54, cached_tokens: 20 },
    });
    const turn = await turnOf();
    expect(turn.usage).toMatchObject({ input_tokens: 321, output_tokens: 54 });

    const span = tracing.one('chat gpt-traced');
    expect(span.kind).toBe(SpanKind.CLIENT);
    expect(span.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-traced',
      'gen_ai.response.model': 'gpt-traced',
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 321,
      'gen_ai.usage.output_tokens': 54,
      'gen_ai.usage.cache_read.input_tokens': 20,
      'yuxi.model.purpose': 'agent',
      'yuxi.model.attempts': 1,
    });
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('counts the retries of one call on its one span', async () => {
    fake.failNext(2, { kind: 'status', status: 503 }).script({ text: 'after two retries' });
    await turnOf();
    const span = tracing.one('chat gpt-traced');
    expect(span.attributes['yuxi.model.attempts']).toBe(3);
    expect(span.events.map((e) => [e.name, e.attributes?.['http.response.status_code']])).toEqual([
      ['model.retry', 503],
      ['model.retry', 503],
    ]);
    expect(span.attributes['gen_ai.response.finish_reasons']).toEqual(['stop']);
  });

  it('records a failed call with its error.type and an error status', async () => {
    fake.failNext(1, { kind: 'status', status: 401 });
    await expect(turnOf()).rejects.toMatchObject({ code: 'models.auth_failed' });
    const span = tracing.one('chat gpt-traced');
    expect(span.attributes['error.type']).toBe('models.auth_failed');
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
  });

  it('marks a summary call as such', async () => {
    fake.script({ text: 'the summary' });
    const model = factoryFor(fake, { retry: fastRetry }).create({ model: 'gpt-traced' });
    await summarize(model, [new HumanMessage('a long talk')], { maxTranscriptChars: 10_000 });
    expect(tracing.one('chat gpt-traced').attributes['yuxi.model.purpose']).toBe('summary');
  });

  it('carries no prompt or answer text unless content capture is on', async () => {
    fake.script({ text: `here: ${ANSWER_MARK}` });
    await turnOf();
    const off = allAttributeText(tracing.spans());
    expect(off).not.toContain(PROMPT_MARK);
    expect(off).not.toContain(ANSWER_MARK);
    expect(tracing.one('chat gpt-traced').attributes['gen_ai.input.messages']).toBeUndefined();

    tracing.reset();
    setContentCapture(true);
    fake.script({ text: `here: ${ANSWER_MARK}` });
    await turnOf();
    const span = tracing.one('chat gpt-traced');
    const input = JSON.parse(span.attributes['gen_ai.input.messages'] as string);
    expect(input).toEqual([
      { role: 'system', parts: [{ type: 'text', content: 'be brief' }] },
      { role: 'user', parts: [{ type: 'text', content: `say ${PROMPT_MARK}` }] },
    ]);
    const output = JSON.parse(span.attributes['gen_ai.output.messages'] as string);
    expect(output).toEqual([
      {
        role: 'assistant',
        parts: [{ type: 'text', content: `here: ${ANSWER_MARK}` }],
        finish_reason: 'stop',
      },
    ]);
  });
});
