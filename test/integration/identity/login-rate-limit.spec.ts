import { TestContext } from '../../support/test-app';

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
});
