import { Queue } from 'bullmq';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from '../../src/modules/maintenance/maintenance.queue';
import { createTestDatabase } from '../support/test-database';
import { baseTestEnvironment, TEST_REDIS_URL } from '../support/test-env';
import { freePort } from '../support/free-port';
import { ServiceProcess } from '../support/service-process';

jest.setTimeout(60_000);

describe('npm run start:prod (the compiled entrypoints as processes)', () => {
  const running: ServiceProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    running.splice(0).forEach((p) => p.kill());
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function environment(overrides: Record<string, string> = {}) {
    const database = await createTestDatabase();
    cleanups.push(database.drop);
    const port = await freePort();
    const env: Record<string, string> = {
      ...baseTestEnvironment(database.name),
      DB_MIGRATE_ON_START: 'true',
      PORT: String(port),
      LOG_LEVEL: 'info',
      ...overrides,
    };
    return { env, port };
  }

  it('stops at boot with exit code 78 and a message naming each bad variable', async () => {
    const service = ServiceProcess.start('main', {
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/postgres',
      REDIS_URL: TEST_REDIS_URL,
      JWT_SECRET: 'x'.repeat(40),
      PORT: 'eighty',
      TOOL_RESULT_INLINE_CHARS: '0',
    });
    running.push(service);
    expect(await service.exitCode(15_000)).toBe(78);
    expect(service.stderr).toContain('Invalid configuration');
    expect(service.stderr).toContain('SECRETS_KEY: is required');
    expect(service.stderr).toContain('PORT: must be an integer');
    expect(service.stderr).toContain('TOOL_RESULT_INLINE_CHARS: must be between 1 and 10000000, got 0');
    expect(service.stderr).not.toContain('x'.repeat(40));
  });

  it('serves health and docs; the superadmin creates a user and an API key that authenticates; SIGTERM exits cleanly', async () => {
    const { env, port } = await environment();
    const service = ServiceProcess.start('main', env);
    running.push(service);
    await service.waitHealthy(port);
    const base = `http://127.0.0.1:${port}/api`;
    const json = async (path: string, init: RequestInit = {}, token?: string) => {
      const res = await fetch(`${base}${path}`, {
        ...init,
        headers: {
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      });
      return { status: res.status, body: (await res.json()) as Record<string, any> };
    };

    const health = await json('/health');
    expect(health.body).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });
    expect((await fetch(`${base}/docs`)).status).toBe(200);
    const docs = (await (await fetch(`${base}/docs-json`)).json()) as {
      paths: Record<string, unknown>;
      components: any;
    };
    expect(Object.keys(docs.paths)).toEqual(
      expect.arrayContaining(['/api/auth/token', '/api/users', '/api/api-keys']),
    );
    expect(docs.components.schemas.ErrorEnvelopeDto).toBeDefined();
    expect(docs.components.securitySchemes.bearer).toBeDefined();

    const login = await json('/auth/token', {
      method: 'POST',
      body: JSON.stringify({ username: 'root', password: 'root-password-1' }),
    });
    expect(login.status).toBe(200);
    const created = await json(
      '/users',
      { method: 'POST', body: JSON.stringify({ username: 'grace', password: 'grace-password' }) },
      login.body.access_token,
    );
    expect(created.status).toBe(201);
    const userLogin = await json('/auth/token', {
      method: 'POST',
      body: JSON.stringify({ username: 'grace', password: 'grace-password' }),
    });
    const key = await json(
      '/api-keys',
      { method: 'POST', body: JSON.stringify({ name: 'e2e' }) },
      userLogin.body.access_token,
    );
    expect(key.status).toBe(201);
    const me = await json('/auth/me', {}, key.body.key);
    expect(me).toEqual({ status: 200, body: expect.objectContaining({ username: 'grace', role: 'user' }) });

    // Logs are structured JSON with the request id and never carry credentials.
    const lines = service.stdout.split('\n').filter((l) => l.startsWith('{'));
    expect(lines.length).toBeGreaterThan(0);
    expect(service.stdout).not.toContain(key.body.key);
    expect(service.stdout).not.toContain('root-password-1');
    expect(service.stdout).not.toContain(login.body.access_token);
    expect(
      lines.some((l) => JSON.parse(l).request_id !== undefined || JSON.parse(l).req?.id !== undefined),
    ).toBe(true);

    const stop = await service.terminate(10_000);
    expect(stop).toMatchObject({ graceful: true, signal: 'SIGTERM' });
    expect(stop.ms).toBeLessThan(Number(env.SHUTDOWN_GRACE_SECONDS) * 1000 + 3_000);
  });

  it('splits roles: APP_ROLE=worker consumes the queue without HTTP; APP_ROLE=api serves without consuming', async () => {
    const { env, port } = await environment();
    const api = ServiceProcess.start('main', { ...env, APP_ROLE: 'api' });
    running.push(api);
    await api.waitHealthy(port);

    const queue = new Queue(MAINTENANCE_QUEUE, {
      connection: { url: TEST_REDIS_URL, maxRetriesPerRequest: null },
      prefix: `${env.REDIS_PREFIX}:bull`,
    });
    cleanups.push(() => queue.close());
    expect(await queue.getWorkersCount()).toBe(0);
    const job = await queue.add(MaintenanceJobs.purgeStaleApiKeys, {});

    const worker = ServiceProcess.start('main', { ...env, APP_ROLE: 'worker', PORT: String(port + 1) });
    running.push(worker);
    let state = await job.getState();
    for (let i = 0; i < 200 && state !== 'completed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    expect(await queue.getWorkersCount()).toBe(1);
    const http = await fetch(`http://127.0.0.1:${port + 1}/api/health`)
      .then((r) => r.status)
      .catch(() => 'refused');
    expect(http).toBe('refused');

    expect(await worker.terminate(10_000)).toMatchObject({ graceful: true, signal: 'SIGTERM' });
    expect(await api.terminate(10_000)).toMatchObject({ graceful: true, signal: 'SIGTERM' });
  });
});
