import { WorkerHost } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import { Logger } from '@nestjs/common';
import { TcpProxy } from '../../support/tcp-proxy';
import { TestContext } from '../../support/test-app';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL } from '../../support/test-env';

describe('GET /api/health, /api/health/live and /api/health/ready (APP_ROLE=api)', () => {
  let ctx: TestContext;
  let redisProxy: TcpProxy;

  beforeAll(async () => {
    const redis = new URL(TEST_REDIS_URL);
    redisProxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    ctx = await TestContext.start({ REDIS_URL: `redis://127.0.0.1:${redisProxy.port}/0` });
  });
  afterAll(async () => {
    await redisProxy.restore();
    await ctx.close();
    await redisProxy.stop();
  });

  it('reports ok with both dependencies up, without authentication', async () => {
    const res = await ctx.http.get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      checks: { database: { status: 'up' }, redis: { status: 'up' } },
    });
  });

  it('answers 503 quickly while Redis is down, keeps serving, and recovers when Redis returns', async () => {
    await redisProxy.cut();
    const started = Date.now();
    const down = await ctx.http.get('/api/health');
    expect(down.status).toBe(503);
    expect(down.body.status).toBe('unavailable');
    expect(down.body.checks.redis.status).toBe('down');
    expect(down.body.checks.database.status).toBe('up');
    expect(Date.now() - started).toBeLessThan(5_000);

    // The process is still up: other routes keep answering.
    const login = await ctx.http
      .post('/api/auth/token')
      .send({ username: 'root', password: 'root-password-1' });
    expect(login.status).toBe(200);

    await redisProxy.restore();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await ctx.http.get('/api/health')).status;
    }
    expect(status).toBe(200);
  });

  it('live answers 200 without authentication', async () => {
    const res = await ctx.http.get('/api/health/live');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('ready answers 200 with both dependencies up; an API process has no consumers check', async () => {
    const res = await ctx.http.get('/api/health/ready');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      draining: false,
      checks: {
        database: { status: 'up', latency_ms: expect.any(Number) },
        redis: { status: 'up', latency_ms: expect.any(Number) },
      },
    });
  });

  it('ready answers 503 while Redis is unreachable (live stays 200) and 200 again once it returns', async () => {
    await redisProxy.cut();
    const started = Date.now();
    const down = await ctx.http.get('/api/health/ready');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({
      status: 'unavailable',
      draining: false,
      checks: {
        database: { status: 'up', latency_ms: expect.any(Number) },
        redis: { status: 'down', latency_ms: expect.any(Number) },
      },
    });
    expect(Date.now() - started).toBeLessThan(5_000);
    const live = await ctx.http.get('/api/health/live');
    expect(live.status).toBe(200);

    await redisProxy.restore();
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      status = (await ctx.http.get('/api/health/ready')).status;
    }
    expect(status).toBe(200);
  });
});

describe('GET /api/health/ready in one process with both roles (APP_ROLE=all)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'all' });
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('counts the queue consumers and is ready once every one takes jobs', async () => {
    let res = await ctx.http.get('/api/health/ready');
    for (let i = 0; i < 100 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await ctx.http.get('/api/health/ready');
    }
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      status: 'ok',
      draining: false,
      checks: {
        database: { status: 'up', latency_ms: expect.any(Number) },
        redis: { status: 'up', latency_ms: expect.any(Number) },
        // maintenance, agent-runs, thread-compaction, knowledge-indexing
        consumers: { status: 'up', running: 4, total: 4 },
      },
    });
    // The old route keeps its shape: no consumers, no draining.
    const health = await ctx.http.get('/api/health');
    expect(Object.keys(health.body as object).sort()).toEqual(['checks', 'status']);
    expect(Object.keys((health.body as { checks: object }).checks).sort()).toEqual(['database', 'redis']);
  });

  it('answers 503 while one queue consumer does not take jobs, and 200 once it does again', async () => {
    const workers = ctx.app
      .get(DiscoveryService)
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker);
    const agentRuns = workers.find((worker) => worker.name === 'agent-runs');
    if (agentRuns === undefined) throw new Error('no agent-runs consumer in an APP_ROLE=all process');
    await agentRuns.pause(true);
    try {
      const res = await ctx.http.get('/api/health/ready');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({
        status: 'unavailable',
        draining: false,
        checks: {
          database: { status: 'up' },
          redis: { status: 'up' },
          consumers: { status: 'down', running: 3, total: 4 },
        },
      });
      expect((await ctx.http.get('/api/health/live')).status).toBe(200);
      expect((await ctx.http.get('/api/health')).status).toBe(200);
    } finally {
      await agentRuns.resume();
    }
    let res = await ctx.http.get('/api/health/ready');
    for (let i = 0; i < 50 && res.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      res = await ctx.http.get('/api/health/ready');
    }
    expect(res.status).toBe(200);
    expect(res.body.checks.consumers).toEqual({ status: 'up', running: 4, total: 4 });
  });
});

describe('GET /api/health while PostgreSQL is down', () => {
  let ctx: TestContext;
  let pgProxy: TcpProxy;

  beforeAll(async () => {
    const pg = new URL(TEST_PG_ADMIN_URL);
    pgProxy = await new TcpProxy(pg.hostname, Number(pg.port || 5432)).start();
    ctx = await TestContext.start((base) => {
      const databaseUrl = new URL(base.DATABASE_URL);
      databaseUrl.host = `127.0.0.1:${pgProxy.port}`;
      return { DATABASE_URL: databaseUrl.toString() };
    });
  });
  afterAll(async () => {
    await pgProxy.restore();
    await ctx.close();
    await pgProxy.stop();
  });

  it('answers up/down and latency only; the error text goes to the log, not to the caller', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn');
    try {
      await pgProxy.cut();
      const res = await ctx.http.get('/api/health');
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        status: 'unavailable',
        checks: {
          database: { status: 'down', latency_ms: expect.any(Number) },
          redis: { status: 'up', latency_ms: expect.any(Number) },
        },
      });
      const text = res.text.toLowerCase();
      for (const leak of ['econnrefused', 'connect', 'error', '127.0.0.1', String(pgProxy.port)])
        expect(text).not.toContain(leak);

      const logged = warn.mock.calls.map((call) => JSON.stringify(call));
      expect(
        logged.some((line) => line.includes('database') && /ECONNREFUSED|terminat|connect/i.test(line)),
      ).toBe(true);
    } finally {
      warn.mockRestore();
      await pgProxy.restore();
    }
  });
});
