import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { freePort } from '../support/free-port';
import { auth, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TcpProxy } from '../support/tcp-proxy';
import { TestContext, type TestUser } from '../support/test-app';
import { TEST_REDIS_URL } from '../support/test-env';

jest.setTimeout(60_000);

interface Probe {
  status: number | 'refused';
  body: Record<string, unknown> | null;
}

async function probe(port: number, path: string, init: RequestInit = {}): Promise<Probe> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      ...init,
      signal: AbortSignal.timeout(4_000),
    });
    const text = await res.text();
    return { status: res.status, body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>) };
  } catch {
    return { status: 'refused', body: null };
  }
}

/** Runs the Dockerfile's HEALTHCHECK command (`node -e …`) with this environment; its exit code. */
function dockerHealthcheck(environment: Record<string, string>): Promise<number | null> {
  const dockerfile = readFileSync(join(__dirname, '../../Dockerfile'), 'utf8');
  const command = /^HEALTHCHECK [^\n]*\\\n\s*CMD (\[.*\])$/m.exec(dockerfile)?.[1];
  if (command === undefined) throw new Error('no HEALTHCHECK CMD in the Dockerfile');
  const [, ...args] = JSON.parse(command) as string[];
  const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '', ...environment } });
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function until(read: () => Promise<Probe>, done: (p: Probe) => boolean, ms: number): Promise<Probe> {
  const deadline = Date.now() + ms;
  let last = await read();
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    last = await read();
  }
  return last;
}

/**
 * The worker process (compiled, as in production) answers live and ready on WORKER_HEALTH_PORT; the
 * API runs in this process (APP_ROLE=api) and takes the runs the worker executes.
 */
describe('the worker process health listener', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let env: Record<string, string> = {};
  const workers: ServiceProcess[] = [];
  const holds: (() => void)[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const overrides = {
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      SHUTDOWN_GRACE_SECONDS: '20',
    };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
  });

  afterEach(() => {
    holds.splice(0).forEach((release) => release());
    workers.splice(0).forEach((worker) => worker.kill());
  });

  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  async function startWorker(): Promise<{ worker: ServiceProcess; port: number }> {
    const port = await freePort();
    const worker = ServiceProcess.start('worker', {
      ...env,
      APP_ROLE: 'worker',
      LOG_LEVEL: 'info',
      WORKER_HEALTH_PORT: String(port),
    });
    workers.push(worker);
    return { worker, port };
  }

  it('answers live, and ready once its queue consumers run; nothing else is served', async () => {
    const { worker, port } = await startWorker();
    const ready = await until(
      () => probe(port, '/api/health/ready'),
      (p) => p.status === 200,
      30_000,
    );
    expect(ready).toEqual({
      status: 200,
      body: {
        status: 'ok',
        draining: false,
        checks: {
          database: { status: 'up', latency_ms: expect.any(Number) },
          redis: { status: 'up', latency_ms: expect.any(Number) },
          consumers: { status: 'up', running: 4, total: 4 },
        },
      },
    });
    await worker.printed('agent-runs worker started');
    expect(await probe(port, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(await probe(port, '/api/health/ready?verbose=1')).toMatchObject({ status: 200 });

    // No API route: not even the old health route or the docs.
    for (const path of ['/api/health', '/api/docs-json', '/api/system/tools', '/'])
      expect(await probe(port, path)).toEqual({
        status: 404,
        body: { code: 'common.not_found', message: 'Not found', details: null },
      });
    expect(await probe(port, '/api/health/live', { method: 'POST' })).toMatchObject({
      status: 405,
      body: { code: 'common.method_not_allowed' },
    });

    // The image's healthcheck (Dockerfile) probes this listener for APP_ROLE=worker.
    expect(await dockerHealthcheck({ APP_ROLE: 'worker', WORKER_HEALTH_PORT: String(port) })).toBe(0);

    const stop = await worker.terminate(15_000);
    expect(stop).toMatchObject({ graceful: true, signal: 'SIGTERM' });
    expect(await probe(port, '/api/health/live')).toEqual({ status: 'refused', body: null });
  });

  it('answers 503 on ready while its Redis is unreachable, and 200 once Redis is back', async () => {
    const redis = new URL(TEST_REDIS_URL);
    const proxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    try {
      const port = await freePort();
      const worker = ServiceProcess.start('worker', {
        ...env,
        APP_ROLE: 'worker',
        LOG_LEVEL: 'info',
        WORKER_HEALTH_PORT: String(port),
        REDIS_URL: `redis://127.0.0.1:${proxy.port}/0`,
      });
      workers.push(worker);
      expect(
        (
          await until(
            () => probe(port, '/api/health/ready'),
            (p) => p.status === 200,
            30_000,
          )
        ).status,
      ).toBe(200);

      await proxy.cut();
      const down = await until(
        () => probe(port, '/api/health/ready'),
        (p) => p.status === 503,
        5_000,
      );
      expect(down).toMatchObject({
        status: 503,
        body: {
          status: 'unavailable',
          draining: false,
          checks: { database: { status: 'up' }, redis: { status: 'down' } },
        },
      });
      expect(await probe(port, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });

      await proxy.restore();
      const back = await until(
        () => probe(port, '/api/health/ready'),
        (p) => p.status === 200,
        15_000,
      );
      expect(back).toMatchObject({
        status: 200,
        body: { checks: { consumers: { status: 'up', running: 4 } } },
      });
    } finally {
      await proxy.restore();
      workers.splice(0).forEach((worker) => worker.kill());
      await proxy.stop();
    }
  });

  it('answers 503 on ready (draining) after SIGTERM while a run is in flight, then closes and exits', async () => {
    const { worker, port } = await startWorker();
    expect(
      (
        await until(
          () => probe(port, '/api/health/ready'),
          (p) => p.status === 200,
          30_000,
        )
      ).status,
    ).toBe(200);

    const threadId = await newThread(ctx, user);
    fake.script({ text: 'Finished while the worker drained.' });
    const held = fake.holdRequest(fake.requests.length + 1);
    holds.push(held.release);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'answer slowly' });
    await held.arrived;

    worker.child.kill('SIGTERM');
    const draining = await until(
      () => probe(port, '/api/health/ready'),
      (p) => p.status === 503,
      5_000,
    );
    expect(draining).toEqual({
      status: 503,
      body: {
        status: 'unavailable',
        draining: true,
        checks: expect.objectContaining({
          database: { status: 'up', latency_ms: expect.any(Number) },
          redis: { status: 'up', latency_ms: expect.any(Number) },
        }),
      },
    });
    // Still draining a while later: the run holds the worker, live still answers.
    await new Promise((r) => setTimeout(r, 500));
    expect(await probe(port, '/api/health/ready')).toMatchObject({ status: 503, body: { draining: true } });
    expect(await probe(port, '/api/health/live')).toEqual({ status: 200, body: { status: 'ok' } });
    expect(worker.child.exitCode).toBeNull();

    held.release();
    const { signal } = await worker.exit(20_000);
    expect(signal).toBe('SIGTERM');
    expect(worker.stdout).toContain('shutdown complete');
    expect(await probe(port, '/api/health/ready')).toEqual({ status: 'refused', body: null });

    // The in-flight run finished inside the drain, with the held answer.
    expect(await waitForStatus(ctx, runId, (s) => s === 'completed', 5_000)).toBe('completed');
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    const last = (messages.body.items as { role: string; content: unknown }[]).at(-1);
    expect(last?.role).toBe('assistant');
    expect(JSON.stringify(last?.content)).toContain('Finished while the worker drained.');
  });
});
