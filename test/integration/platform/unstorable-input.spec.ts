import { auth, newThread } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

describe('text PostgreSQL cannot store and null for optional fields', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'superadmin' });
    user = await ctx.newUser();
  });
  afterAll(() => ctx?.close());

  const threadTitles = async (): Promise<string[]> =>
    (await ctx.dataSource.query<{ title: string }[]>(`SELECT title FROM threads ORDER BY title`)).map(
      (r) => r.title,
    );

  it('refuses a NUL or an unpaired surrogate in any string with 400 naming the field, storing nothing', async () => {
    const before = await threadTitles();
    for (const raw of [
      '{"agent_slug":"default-chatbot","title":"a\\u0000b"}',
      '{"agent_slug":"default-chatbot","title":"x\\ud800"}',
      '{"agent_slug":"default-chatbot","title":"\\udc00y"}',
    ]) {
      const res = await ctx.http
        .post('/api/threads')
        .set(auth(user))
        .set('Content-Type', 'application/json')
        .send(raw);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'common.validation_failed',
        details: { fields: [{ field: 'title' }] },
      });
    }
    expect(await threadTitles()).toEqual(before);

    const nested = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .set('Content-Type', 'application/json')
      .send('{"name":"n","config":{"tools":["ls","x\\u0000"]},"k\\u0000":1}');
    expect(nested.status).toBe(400);
    expect(nested.body.details.fields.map((f: { field: string }) => f.field).sort()).toEqual([
      'body',
      'config.tools.1',
    ]);
  });

  it('keeps a well-formed surrogate pair (an emoji) and other Unicode text', async () => {
    const res = await ctx.http
      .post('/api/threads')
      .set(auth(user))
      .send({ agent_slug: 'default-chatbot', title: '报告 😀' });
    expect(res.status).toBe(201);
    const [row] = await ctx.dataSource.query<{ title: string }[]>(`SELECT title FROM threads WHERE id = $1`, [
      res.body.id,
    ]);
    expect(row.title).toBe('报告 😀');
  });

  it('refuses null for an optional field that has no null meaning, changing nothing', async () => {
    const target = await ctx.newUser();
    for (const field of ['role', 'disabled', 'department_id', 'password']) {
      const res = await ctx.http
        .patch(`/api/users/${target.id}`)
        .set(auth(admin))
        .send({ [field]: null });
      expect(res.status).toBe(400);
      expect(res.body.details.fields.map((f: { field: string }) => f.field)).toEqual([field]);
    }
    const [row] = await ctx.dataSource.query<{ role: string; disabled: boolean }[]>(
      `SELECT role, disabled FROM users WHERE id = $1`,
      [target.id],
    );
    expect(row).toEqual({ role: 'user', disabled: false });
    expect(
      (await ctx.http.post('/api/auth/token').send({ username: target.username, password: target.password }))
        .status,
    ).toBe(200);

    const key = await ctx.http.post('/api/api-keys').set(auth(user)).send({ name: 'k', expires_at: null });
    expect(key.status).toBe(400);
    expect(key.body.details.fields[0].field).toBe('expires_at');
    const thread = await newThread(ctx, user);
    const run = await ctx.http
      .post(`/api/threads/${thread}/runs`)
      .set(auth(user))
      .send({ input: 'hi', model: null });
    expect(run.status).toBe(400);
    expect(await ctx.dataSource.query(`SELECT id FROM runs WHERE thread_id = $1`, [thread])).toEqual([]);
  });

  it('still lets an agent description be cleared with null', async () => {
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Nullable', description: 'd' });
    expect(created.status).toBe(201);
    const cleared = await ctx.http
      .patch(`/api/agents/${created.body.slug}`)
      .set(auth(admin))
      .send({ description: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.description).toBeNull();
  });
});
