import { TcpProxy } from '../../support/tcp-proxy';
import { TestContext } from '../../support/test-app';
import { TEST_REDIS_URL } from '../../support/test-env';

describe('GET /api/health', () => {
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
});
