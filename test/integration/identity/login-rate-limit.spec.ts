import type { Response } from 'supertest';
import { TcpProxy } from '../../support/tcp-proxy';
import { TestContext } from '../../support/test-app';
import { TEST_REDIS_URL } from '../../support/test-env';

/** Checked attempts answer 401; refused ones 429 with a Retry-After within the window. */
function expectAtMostLimitChecked(responses: Response[], limit: number): void {
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
  expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(limit);
  const refused = responses.filter((r) => r.status === 429);
  expect(refused.length).toBeGreaterThanOrEqual(responses.length - limit);
  for (const r of refused) {
    expect(r.body).toMatchObject({ code: 'auth.too_many_attempts' });
    expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
  }
}

describe('login rate limit', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ LOGIN_MAX_FAILURES_PER_MINUTE: '3', TRUST_PROXY: 'loopback' });
  });
  afterAll(() => ctx.close());

  const attempt = (ip: string, username: string, password: string) =>
    ctx.http.post('/api/auth/token').set('X-Forwarded-For', ip).send({ username, password });

  it('answers 429 with Retry-After once an IP has failed too often, even for the right password', async () => {
    const user = await ctx.newUser();
    for (let i = 0; i < 3; i++)
      expect((await attempt('203.0.113.7', user.username, 'wrong-password')).status).toBe(401);

    const blocked = await attempt('203.0.113.7', user.username, user.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ status_code: 429, code: 'auth.too_many_attempts' });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts each client IP separately', async () => {
    const user = await ctx.newUser();
    for (let i = 0; i < 3; i++) await attempt('203.0.113.8', user.username, 'wrong-password');
    expect((await attempt('203.0.113.8', user.username, user.password)).status).toBe(429);
    expect((await attempt('203.0.113.9', user.username, user.password)).status).toBe(200);
  });

  it('does not count successful logins', async () => {
    const user = await ctx.newUser();
    for (let i = 0; i < 5; i++)
      expect((await attempt('203.0.113.10', user.username, user.password)).status).toBe(200);
  });

  it('checks at most the limit of 50 parallel wrong passwords and refuses the rest with 429', async () => {
    const user = await ctx.newUser();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => attempt('203.0.113.11', user.username, 'wrong-password')),
    );
    expectAtMostLimitChecked(responses, ctx.config.auth.loginMaxFailuresPerMinute);
    expect((await attempt('203.0.113.11', user.username, user.password)).status).toBe(429);
  });

  it('gives a successful login its reservation back, so right passwords never fill the window', async () => {
    const user = await ctx.newUser();
    const parallel = await Promise.all(
      Array.from({ length: 10 }, () => attempt('203.0.113.12', user.username, user.password)),
    );
    // In flight, the right passwords hold reservations; once answered none stays counted.
    expect(parallel.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(3);
    for (let i = 0; i < 2; i++) await attempt('203.0.113.12', user.username, 'wrong-password');
    expect((await attempt('203.0.113.12', user.username, user.password)).status).toBe(200);
  });
});

describe('login rate limit while Redis is down', () => {
  let ctx: TestContext;
  let redisProxy: TcpProxy;
  beforeAll(async () => {
    const redis = new URL(TEST_REDIS_URL);
    redisProxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    ctx = await TestContext.start({
      LOGIN_MAX_FAILURES_PER_MINUTE: '3',
      TRUST_PROXY: 'loopback',
      REDIS_URL: `redis://127.0.0.1:${redisProxy.port}/0`,
    });
  });
  afterAll(async () => {
    await redisProxy.restore();
    await ctx.close();
    await redisProxy.stop();
  });

  it('counts in process memory just as atomically: 50 parallel wrong passwords, at most the limit checked', async () => {
    const user = await ctx.newUser();
    await redisProxy.cut();
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.http
          .post('/api/auth/token')
          .set('X-Forwarded-For', '203.0.113.20')
          .send({ username: user.username, password: 'wrong-password' }),
      ),
    );
    expectAtMostLimitChecked(responses, 3);
  });
});
