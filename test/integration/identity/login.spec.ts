import { TestContext } from '../../support/test-app';

describe('login and the current user', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start();
  });
  afterAll(() => ctx.close());

  it('logs the seeded superadmin in and returns a bearer token that identifies it', async () => {
    const res = await ctx.http.post('/api/auth/token').send({ username: 'root', password: 'root-password-1' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'bearer', expires_in: 86400, user: { username: 'root', role: 'superadmin' } });
    const me = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${res.body.access_token}`);
    expect(me.status).toBe(200);
    expect(me.body).toEqual({
      id: res.body.user.id,
      username: 'root',
      role: 'superadmin',
      department_id: await ctx.defaultDepartmentId(),
    });
  });
});
