import { randomBytes } from 'node:crypto';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { freePort } from '../support/free-port';
import { Scrape } from '../support/metrics/prometheus-text';
import { newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(60_000);

const TOKEN = `worker-metrics-${randomBytes(12).toString('hex')}`;

async function get(port: number, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers, signal: AbortSignal.timeout(4_000) });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

async function untilReady(port: number): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const ready = await get(port, '/api/health/ready').catch(() => null);
    if (ready?.status === 200) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the worker did not become ready');
}

/**
 * The compiled worker process (APP_ROLE=worker) serves `/metrics` on its health listener behind
 * METRICS_TOKEN, counting the runs it executes; the API runs in this process.
 */
describe('the worker process /metrics', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let env: Record<string, string> = {};
  const workers: ServiceProcess[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const overrides = { OPENAI_BASE_URL: fake.baseUrl, DEFAULT_MODEL: 'fake-model' };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
  });

  afterEach(() => workers.splice(0).forEach((worker) => worker.kill()));

  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  async function startWorker(
    extra: Record<string, string>,
  ): Promise<{ port: number; worker: ServiceProcess }> {
    const port = await freePort();
    const worker = ServiceProcess.start('worker', {
      ...env,
      APP_ROLE: 'worker',
      WORKER_HEALTH_PORT: String(port),
      ...extra,
    });
    workers.push(worker);
    await untilReady(port);
    return { port, worker };
  }

  it('serves /metrics on the health listener behind the token, with the runs it executed', async () => {
    const { port } = await startWorker({ METRICS_TOKEN: TOKEN });

    const missing = await get(port, '/metrics');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(JSON.parse(missing.text)).toEqual({
      code: 'auth.missing_credentials',
      message: 'Send `Authorization: Bearer <METRICS_TOKEN>`.',
      details: null,
    });
    const wrong = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}-not` });
    expect(wrong.status).toBe(401);
    expect(JSON.parse(wrong.text)).toMatchObject({ code: 'auth.invalid_token' });

    const scrape = async () => {
      const res = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      return Scrape.of(res.text);
    };
    const before = await scrape();
    expect(before.value('process_resident_memory_bytes')).toBeGreaterThan(0);

    fake.script(
      { toolCalls: [{ name: 'mark_for_improvement', args: { reason: 'Seen by the worker.' } }] },
      { text: 'Done.', usage: { prompt_tokens: 40, completion_tokens: 4 } },
    );
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'go' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'completed')).toBe('completed');

    const after = await scrape();
    expect({
      runs: after.delta(before, 'yuxi_runs_total', { status: 'completed', agent: 'default-chatbot' }),
      tools: after.delta(before, 'yuxi_tool_calls_total', { tool: 'mark_for_improvement', outcome: 'ok' }),
      models: after.delta(before, 'yuxi_model_calls_total', { model: 'fake-model', outcome: 'ok' }),
      output: after.delta(before, 'yuxi_model_tokens_total', { model: 'fake-model', type: 'output' }),
      claimed: after.delta(before, 'yuxi_run_queue_wait_seconds_count'),
    }).toEqual({ runs: 1, tools: 1, models: 2, output: 7 + 4, claimed: 1 });
    expect(after.labelValues('yuxi_queue_jobs', 'queue')).toContain('agent-runs');
    // The API process (this one) executed nothing of it.
    const api = await ctx.http.get('/metrics');
    expect(api.status).toBe(404);
  });

  it('does not serve /metrics on the health listener without METRICS_TOKEN', async () => {
    const { port } = await startWorker({});
    const res = await get(port, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toEqual({ code: 'common.not_found', message: 'Not found', details: null });
  });
});
