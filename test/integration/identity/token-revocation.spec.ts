import { TestContext, type TestUser } from '../../support/test-app';

describe('tokens issued before a credential change', () => {
  let ctx: TestContext;
  let superadmin: TestUser;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const me = (token: string) => ctx.http.get('/api/auth/me').set(bearer(token));
  const patch = (id: string, body: Record<string, unknown>) =>
    ctx.http.patch(`/api/users/${id}`).set(bearer(superadmin.token)).send(body);
  const login = (username: string, password: string) =>
    ctx.http.post('/api/auth/token').send({ username, password });
  const tokenVersion = async (id: string): Promise<number> =>
    (await ctx.dataSource.query(`SELECT token_version FROM users WHERE id = $1`, [id]))[0].token_version;

  beforeAll(async () => {
    ctx = await TestContext.start();
    superadmin = await ctx.newUser({ role: 'superadmin' });
  });
  afterAll(() => ctx.close());

  it('stops a token issued before a password change; a token issued right after it works', async () => {
    const user = await ctx.newUser();
    const key = await ctx.http.post('/api/api-keys').set(bearer(user.token)).send({ name: 'ci' });
    expect(key.status).toBe(201);
    expect((await me(user.token)).status).toBe(200);

    expect((await patch(user.id, { password: 'a-new-password-1' })).status).toBe(200);
    expect(await tokenVersion(user.id)).toBe(1);

    const stale = await me(user.token);
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ status_code: 401, code: 'auth.token_revoked' });

    // Issued in the same second as the change: a version counter, not a timestamp, decides.
    const fresh = await login(user.username, 'a-new-password-1');
    expect(fresh.status).toBe(200);
    expect((await me(fresh.body.access_token)).status).toBe(200);

    // API keys are separate credentials the owner revokes explicitly; a password change leaves them.
    expect((await me(key.body.key)).status).toBe(200);
  });

  it('stops a token issued before a role change, and only a real change counts', async () => {
    const user = await ctx.newUser();
    expect((await patch(user.id, { role: 'user' })).status).toBe(200);
    expect((await me(user.token)).status).toBe(200);

    expect((await patch(user.id, { role: 'admin' })).status).toBe(200);
    const stale = await me(user.token);
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('auth.token_revoked');
    const fresh = await login(user.username, user.password);
    expect((await me(fresh.body.access_token)).body.role).toBe('admin');
  });

  it('keeps a token issued before a disable refused after the account is enabled again', async () => {
    const user = await ctx.newUser();
    expect((await patch(user.id, { disabled: true })).status).toBe(200);
    expect((await me(user.token)).body.code).toBe('auth.account_disabled');
    expect((await patch(user.id, { disabled: false })).status).toBe(200);

    const stale = await me(user.token);
    expect(stale.status).toBe(401);
    expect(stale.body.code).toBe('auth.token_revoked');
    const fresh = await login(user.username, user.password);
    expect((await me(fresh.body.access_token)).status).toBe(200);
  });

  it('keeps tokens valid across a department change (not a credential)', async () => {
    const user = await ctx.newUser();
    const department = await ctx.http
      .post('/api/departments')
      .set(bearer(superadmin.token))
      .send({ name: `d-${user.username}` });
    expect((await patch(user.id, { department_id: department.body.id })).status).toBe(200);
    expect(await tokenVersion(user.id)).toBe(0);
    const res = await me(user.token);
    expect(res.status).toBe(200);
    expect(res.body.department_id).toBe(department.body.id);
  });
});
