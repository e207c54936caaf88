import { DomainError } from '../../../../src/common/errors/domain-error';
import { FakeOpenAiServer } from '../../../support/fake-openai/fake-openai-server';
import { factoryFor, TEST_API_KEY } from './chat-model-against-fake';

const fastRetry = { baseDelayMs: 20, maxDelayMs: 2_000, maxTotalWaitMs: 5_000 };

async function failureOf(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  return error as DomainError;
}

describe('chat model retries against an OpenAI-compatible endpoint', () => {
  let fake: FakeOpenAiServer;
  beforeEach(async () => (fake = await FakeOpenAiServer.start()));
  afterEach(() => fake.close());

  it('waits the Retry-After of a 429, then succeeds', async () => {
    fake.failNext(1, { kind: 'status', status: 429, retryAfter: '1' }).script({ text: 'after the wait' });
    const started = Date.now();
    const reply = await factoryFor(fake, { retry: fastRetry }).create().invoke('hi');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(reply.text).toBe('after the wait');
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up after 4 attempts of 500 with models.unavailable', async () => {
    fake.failNext(4, { kind: 'status', status: 500 }).script({ text: 'never reached' });
    const error = await failureOf(factoryFor(fake, { retry: fastRetry }).create().invoke('hi'));
    expect(error.code).toBe('models.unavailable');
    expect(error.details).toEqual({ model: 'fake-default', attempts: 4, status: 500 });
    expect(fake.requests).toHaveLength(4);
  });

  it('fails a 401 at once with models.auth_failed and never shows the API key', async () => {
    fake.failNext(1, { kind: 'status', status: 401 });
    const error = await failureOf(factoryFor(fake, { retry: fastRetry }).create().invoke('hi'));
    expect(error.code).toBe('models.auth_failed');
    expect(error.details).toMatchObject({ status: 401, attempts: 1 });
    expect(fake.requests).toHaveLength(1);
    expect(
      JSON.stringify({ message: error.message, details: error.details, stack: error.stack }),
    ).not.toContain(TEST_API_KEY);
  });

  it('fails a 400 at once with models.bad_request', async () => {
    fake.failNext(1, { kind: 'status', status: 400 });
    const error = await failureOf(factoryFor(fake, { retry: fastRetry }).create().invoke('hi'));
    expect(error.code).toBe('models.bad_request');
    expect(fake.requests).toHaveLength(1);
  });

  it('stops at once when aborted during a backoff', async () => {
    fake.failNext(1, { kind: 'status', status: 503, retryAfter: '1' }).script({ text: 'never reached' });
    const controller = new AbortController();
    const model = factoryFor(fake, {
      retry: fastRetry,
      retryHooks: { onRetry: () => controller.abort() },
    }).create();
    const started = Date.now();
    await expect(model.invoke('hi', { signal: controller.signal })).rejects.toThrow(/abort/i);
    expect(Date.now() - started).toBeLessThan(500);
    expect(fake.requests).toHaveLength(1);
  });

  it('counts a hung request that times out as a failed try', async () => {
    fake.failNext(2, { kind: 'hang' }).script({ text: 'answered at last' });
    const model = factoryFor(fake, { retry: fastRetry, requestTimeoutMs: 200 }).create();
    const reply = await model.invoke('hi');
    expect(reply.text).toBe('answered at last');
    expect(fake.requests).toHaveLength(3);
  });
});
