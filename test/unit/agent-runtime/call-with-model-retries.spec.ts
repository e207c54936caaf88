import { DomainError } from '../../../src/common/errors/domain-error';
import { callWithModelRetries } from '../../../src/modules/agent-runtime/model/call-with-model-retries';

const options = { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 1_000, maxTotalWaitMs: 2_000 };

/** An error shaped like the OpenAI SDK's `APIError`. */
function httpError(status: number, retryAfter?: string): Error {
  const headers = new Headers(retryAfter === undefined ? {} : { 'retry-after': retryAfter });
  return Object.assign(new Error(`${status} Incorrect API key provided: sk-secret`), { status, headers });
}

function failingThen<T>(errors: Error[], value: T) {
  return jest.fn(() => {
    const error = errors.shift();
    return error === undefined ? Promise.resolve(value) : Promise.reject(error);
  });
}

function run<T>(call: () => Promise<T>, signal?: AbortSignal) {
  const waits: number[] = [];
  const sleep = (ms: number) => {
    waits.push(ms);
    return Promise.resolve();
  };
  return {
    waits,
    result: callWithModelRetries(call, { model: 'm', options, signal, sleep, random: () => 0.5 }),
  };
}

describe('callWithModelRetries', () => {
  it('retries a 5xx with backoff and returns the first success', async () => {
    const call = failingThen([httpError(502), httpError(503)], 'ok');
    const { waits, result } = run(call);
    await expect(result).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(3);
    expect(waits).toEqual([50, 100]);
  });

  it('retries a connection reset', async () => {
    const reset = Object.assign(new Error('Connection error.'), { name: 'APIConnectionError' });
    const call = failingThen([reset], 'ok');
    await expect(run(call).result).resolves.toBe('ok');
    expect(call).toHaveBeenCalledTimes(2);
  });

  it('gives up on a Retry-After beyond the maximum delay with models.rate_limited', async () => {
    const call = failingThen([httpError(429, '30')], 'ok');
    const error = (await run(call).result.catch((e: unknown) => e)) as DomainError;
    expect(error).toBeInstanceOf(DomainError);
    expect(error.code).toBe('models.rate_limited');
    expect(error.details).toEqual({ model: 'm', attempts: 1, status: 429, retry_after_seconds: 30 });
    expect(error.retryAfterSeconds).toBe(30);
  });

  it('fails a 400 at once with models.bad_request, without the provider message', async () => {
    const call = failingThen([httpError(400)], 'ok');
    const error = (await run(call).result.catch((e: unknown) => e)) as DomainError;
    expect(error.code).toBe('models.bad_request');
    expect(call).toHaveBeenCalledTimes(1);
    expect(JSON.stringify({ message: error.message, details: error.details })).not.toContain('sk-secret');
    expect(error.cause).toBeUndefined();
  });

  it('passes errors that are not provider failures through unchanged', async () => {
    const bug = new TypeError('boom');
    await expect(run(failingThen([bug], 'ok')).result).rejects.toBe(bug);
  });

  it('does not call the provider when the signal has already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    const call = failingThen([], 'ok');
    await expect(run(call, controller.signal).result).rejects.toThrow('cancelled');
    expect(call).not.toHaveBeenCalled();
  });
});
