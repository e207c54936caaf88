import { HumanMessage } from '@langchain/core/messages';
import type { DiscoveryService } from '@nestjs/core';
import type { AppConfig } from '../../../../src/config/app-config';
import { Secret } from '../../../../src/config/secret';
import { summarize } from '../../../../src/modules/agent-runtime/context/summarizer';
import { ChatModelFactory } from '../../../../src/modules/agent-runtime/model/chat-model.factory';
import { Metrics } from '../../../../src/observability/metrics';
import { MetricsRegistry } from '../../../../src/observability/metrics/metrics-registry';
import { QueueDepthReader } from '../../../../src/observability/metrics/queue-depth-reader';
import { FakeOpenAiServer } from '../../../support/fake-openai/fake-openai-server';
import { Scrape } from '../../../support/metrics/prometheus-text';

/** Every `streamTurn` of a model the factory makes is counted once, by purpose, outcome and tokens. */
describe('model call metrics', () => {
  let fake: FakeOpenAiServer;
  let registry: MetricsRegistry;
  let factory: ChatModelFactory;

  beforeEach(async () => {
    fake = await FakeOpenAiServer.start();
    const config = {
      llm: {
        openaiBaseUrl: fake.baseUrl,
        openaiApiKey: new Secret('sk-test'),
        configured: true,
        defaultModel: 'fake-default',
      },
      metrics: { maxAgentLabels: 10 },
    } as unknown as AppConfig;
    registry = new MetricsRegistry(
      new QueueDepthReader({ getProviders: () => [] } as unknown as DiscoveryService),
    );
    factory = new ChatModelFactory(config, { retry: { maxAttempts: 1 } }, new Metrics(registry, config));
  });
  afterEach(() => fake.close());

  const scrape = async () => Scrape.of((await registry.render()).text);
  const turn = (signal?: AbortSignal) =>
    factory.create().streamTurn([new HumanMessage('hi')], [], { signal, onText: () => undefined });

  it('counts an answered call with the tokens the provider reported, a summary as purpose summary', async () => {
    fake.script(
      { text: 'Hello.', usage: { prompt_tokens: 21, completion_tokens: 3 } },
      { text: 'The summary.', usage: { prompt_tokens: 50, completion_tokens: 9 } },
    );
    await turn();
    await summarize(factory.create(), [new HumanMessage('a long story')], { maxTranscriptChars: 1000 });
    const s = await scrape();
    const of = (purpose: string) => ({
      calls: s.value('yuxi_model_calls_total', { model: 'fake-default', purpose, outcome: 'ok' }),
      timed: s.value('yuxi_model_call_duration_seconds_count', { model: 'fake-default', purpose }),
      input: s.value('yuxi_model_tokens_total', { model: 'fake-default', purpose, type: 'input' }),
      output: s.value('yuxi_model_tokens_total', { model: 'fake-default', purpose, type: 'output' }),
    });
    expect(of('agent')).toEqual({ calls: 1, timed: 1, input: 21, output: 3 });
    expect(of('summary')).toEqual({ calls: 1, timed: 1, input: 50, output: 9 });
  });

  it('counts a refused call as error and a call its caller aborted as cancelled, with no tokens', async () => {
    fake.failNext(1, { kind: 'status', status: 400 });
    await expect(turn()).rejects.toBeDefined();
    const held = fake.holdNext();
    fake.script({ text: 'Too late.' });
    const stop = new AbortController();
    const aborted = turn(stop.signal);
    await held.arrived;
    stop.abort();
    await expect(aborted).rejects.toBeDefined();
    held.release();
    const s = await scrape();
    expect({
      error: s.value('yuxi_model_calls_total', { outcome: 'error' }),
      cancelled: s.value('yuxi_model_calls_total', { outcome: 'cancelled' }),
      ok: s.value('yuxi_model_calls_total', { outcome: 'ok' }),
      tokens: s.value('yuxi_model_tokens_total'),
    }).toEqual({ error: 1, cancelled: 1, ok: 0, tokens: 0 });
  });
});
