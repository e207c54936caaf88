import { TestContext } from '../../support/test-app';

describe('login and the current user', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.close());

  it('logs the seeded superadmin in and returns a bearer token that identifies it', async () => {
    const res = await ctx.http
      .post('/api/auth/token')
      .send({ username: 'root', password: 'root-password-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      token_type: 'bearer',
      expires_in: 86400,
      user: { username: 'root', role: 'superadmin' },
    });
    const me = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${res.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: res.body.user.id,
      username: 'root',
      role: 'superadmin',
      department_id: await ctx.defaultDepartmentId(),
    });
  });

  it('matches usernames case-insensitively', async () => {
    const user = await ctx.newUser({ username: 'CaseUser' });
    const res = await ctx.http
      .post('/api/auth/token')
      .send({ username: 'caseuser', password: user.password });
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
  });

  it('refuses a wrong password and an unknown user with the same error', async () => {
    const user = await ctx.newUser();
    const wrong = await ctx.http
      .post('/api/auth/token')
      .send({ username: user.username, password: 'not-the-password' });
    const unknown = await ctx.http.post('/api/auth/token').send({ username: 'nobody-here', password: 'x' });
    for (const res of [wrong, unknown]) {
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('auth.invalid_credentials');
      expect(res.body.access_token).toBeUndefined();
    }
  });

  it('answers 401 without a token, with a malformed one and with a forged one', async () => {
    const none = await ctx.http.get('/api/auth/me');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('auth.missing_credentials');

    const garbage = await ctx.http.get('/api/auth/me').set('Authorization', 'Bearer not-a-jwt');
    expect(garbage.status).toBe(401);
    expect(garbage.body.code).toBe('auth.invalid_token');

    const user = await ctx.newUser();
    const [header, payload] = user.token.split('.');
    const forged = `${header}.${payload}.${Buffer.from('forged-signature').toString('base64url')}`;
    const res = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${forged}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('auth.invalid_token');
  });

  it('refuses a disabled user at login, and their existing token at once', async () => {
    const user = await ctx.newUser();
    const admin = await ctx.newUser({ role: 'admin' });
    const before = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${user.token}`);
    expect(before.status).toBe(200);

    const disable = await ctx.http
      .patch(`/api/users/${user.id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ disabled: true });
    expect(disable.status).toBe(200);
    expect(disable.body.disabled).toBe(true);

    const after = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${user.token}`);
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('auth.account_disabled');
    const login = await ctx.http
      .post('/api/auth/token')
      .send({ username: user.username, password: user.password });
    expect(login.status).toBe(401);
    expect(login.body.code).toBe('auth.account_disabled');
  });
});
