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

  /** A multipart body whose file part names itself only by an RFC 5987 `filename*` (as curl and browsers can). */
  const multipartNamed = (encodedName: string, content: string) => {
    const boundary = 'fuzzboundary7f3a';
    const body = Buffer.from(
      `--${boundary}\r\n` +
        `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encodedName}\r\n` +
        'Content-Type: text/plain\r\n\r\n' +
        `${content}\r\n--${boundary}--\r\n`,
    );
    return { body, type: `multipart/form-data; boundary=${boundary}` };
  };

  it('refuses a NUL in a query string or a route param with 400 before anything reaches PostgreSQL', async () => {
    const kb = await ctx.http.post('/api/knowledge-bases').set(auth(admin)).send({ name: 'NUL probes' });
    expect(kb.status).toBe(201);
    const probes: [url: string, field: string][] = [
      [`/api/knowledge-bases/${kb.body.kb_id}/files?query=%00`, 'query'],
      [`/api/knowledge-bases/${kb.body.kb_id}/files?query=a%00b&limit=2`, 'query'],
      ['/api/improvement-marks?agent_slug=%00', 'agent_slug'],
      ['/api/system/mcp-servers/%00', 'path'],
      ['/api/system/mcp-servers/a%00b/tools', 'path'],
      ['/api/skills/x%00/tree', 'path'],
      ['/api/threads?cursor=%00', 'cursor'],
      ['/api/agents?include_subagents=%00', 'include_subagents'],
    ];
    for (const [url, field] of probes) {
      const res = await ctx.http.get(url).set(auth(admin));
      expect({ url, status: res.status, body: res.body }).toMatchObject({
        url,
        status: 400,
        body: { code: 'common.validation_failed', details: { fields: [{ field }] } },
      });
    }
    // A NUL as a query key is refused as well, and so is one in a write route's path.
    const key = await ctx.http.get('/api/threads?a%00=1').set(auth(user));
    expect(key.status).toBe(400);
    const patched = await ctx.http.patch('/api/agents/x%00y').set(auth(admin)).send({ name: 'n' });
    expect(patched.status).toBe(400);
    expect(patched.body.code).toBe('common.validation_failed');
  });

  it('stores a knowledge-base upload named with a NUL or control characters under its sanitized name', async () => {
    const kb = await ctx.http.post('/api/knowledge-bases').set(auth(admin)).send({ name: 'Named uploads' });
    expect(kb.status).toBe(201);
    for (const [encoded, stored] of [
      ['a%00.txt', 'a.txt'],
      ['..%2F..%2Fb%01%1F.md', 'b.md'],
    ]) {
      const { body, type } = multipartNamed(encoded, '# notes\n\ntext\n');
      const res = await ctx.http
        .post(`/api/knowledge-bases/${kb.body.kb_id}/files`)
        .set(auth(admin))
        .set('Content-Type', type)
        .send(body);
      expect({ encoded, status: res.status, filename: res.body.filename }).toEqual({
        encoded,
        status: 201,
        filename: stored,
      });
      const [row] = await ctx.dataSource.query<{ filename: string }[]>(
        `SELECT filename FROM knowledge_files WHERE id = $1`,
        [res.body.file_id],
      );
      expect(row.filename).toBe(stored);
    }
  });
});
