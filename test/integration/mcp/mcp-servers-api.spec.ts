import { BuiltinMcpSync } from '../../../src/modules/mcp/builtin/builtin-mcp-sync';
import { HeaderSecrets } from '../../../src/modules/mcp/servers/header-secrets';
import { auth } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

const SECRET = 'Bearer sk-live-0123456789abcdef';
const base = (slug: string, extra: Record<string, unknown> = {}) => ({
  slug,
  name: `Server ${slug}`,
  transport: 'streamable_http',
  url: 'https://mcp.example.com/mcp',
  ...extra,
});

describe('MCP server records and the admin API', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
  });

  afterAll(() => ctx.close());

  const create = (body: Record<string, unknown>, who: TestUser = admin) =>
    ctx.http.post('/api/system/mcp-servers').set(auth(who)).send(body);

  it('creates an enabled custom server whose header values never come back, and seals them at rest', async () => {
    const res = await create(
      base('docs-one', { headers: { Authorization: SECRET }, tags: ['docs'], icon: '📘' }),
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      slug: 'docs-one',
      transport: 'streamable_http',
      enabled: true,
      source: 'custom',
      disabled_tools: [],
      timeout_s: 30,
      sse_read_timeout_s: 300,
      tags: ['docs'],
      icon: '📘',
      created_by: admin.id,
    });
    expect(Object.keys(res.body.headers)).toEqual(['Authorization']);
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
    expect(JSON.stringify(res.body)).not.toContain('0123456789abcdef');

    const [row] = await ctx.dataSource.query<{ id: string; headers_sealed: string }[]>(
      `SELECT id, headers_sealed FROM mcp_servers WHERE slug = 'docs-one'`,
    );
    expect(row.headers_sealed).not.toContain('sk-live');
    expect(ctx.app.get(HeaderSecrets).open(row.id, row.headers_sealed)).toEqual({ Authorization: SECRET });

    for (const path of ['/api/system/mcp-servers', '/api/system/mcp-servers/docs-one']) {
      const read = await ctx.http.get(path).set(auth(admin));
      expect(read.status).toBe(200);
      expect(JSON.stringify(read.body)).not.toContain(SECRET);
    }
  });

  it('keeps a stored header secret when PATCH sends its redacted form back, and replaces it otherwise', async () => {
    await create(base('docs-two', { headers: { Authorization: SECRET, 'X-Team': 'team-alpha-1' } }));
    const shown = (await ctx.http.get('/api/system/mcp-servers/docs-two').set(auth(admin))).body as {
      headers: Record<string, string>;
    };
    const patched = await ctx.http
      .patch('/api/system/mcp-servers/docs-two')
      .set(auth(admin))
      .send({
        headers: { Authorization: shown.headers.Authorization, 'X-Team': 'team-beta-22' },
        name: 'Renamed',
      });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Renamed', updated_by: admin.id });
    const [row] = await ctx.dataSource.query<{ id: string; headers_sealed: string }[]>(
      `SELECT id, headers_sealed FROM mcp_servers WHERE slug = 'docs-two'`,
    );
    expect(ctx.app.get(HeaderSecrets).open(row.id, row.headers_sealed)).toEqual({
      Authorization: SECRET,
      'X-Team': 'team-beta-22',
    });
  });

  it.each([
    ['stdio transport', base('bad-a', { transport: 'stdio' })],
    ['an extra field', base('bad-b', { command: 'npx evil' })],
    ['a bad slug', base('Bad_Slug')],
    ['a double hyphen slug', base('bad--slug')],
    ['a slug over 64 characters', base('a'.repeat(65))],
    ['a file: URL', base('bad-c', { url: 'file:///etc/passwd' })],
    ['a non-URL', base('bad-d', { url: 'not a url' })],
    ['a header with a newline', base('bad-e', { headers: { 'X-A': 'one\r\nX-B: two' } })],
    ['a null description', base('bad-f', { description: null })],
  ])('refuses %s with 400 common.validation_failed', async (_name, body) => {
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('common.validation_failed');
    const rows = await ctx.dataSource.query(`SELECT 1 FROM mcp_servers WHERE slug = $1`, [body.slug]);
    expect(rows).toHaveLength(0);
  });

  it.each([
    ['the metadata address', 'http://169.254.169.254/latest/meta-data'],
    ['a private 10.x address', 'http://10.1.2.3:8080/mcp'],
    ['127.0.0.2 (not on the allow list)', 'http://127.0.0.2:9000/mcp'],
    ['an IPv6 loopback', 'http://[::1]:9000/mcp'],
  ])('refuses a URL whose literal host is %s with 400 mcp.url_not_allowed', async (_name, url) => {
    const res = await create(base('blocked-url', { url }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'mcp.url_not_allowed', details: { reason: 'blocked_address' } });
    const patch = await ctx.http.patch('/api/system/mcp-servers/docs-one').set(auth(admin)).send({ url });
    expect(patch.status).toBe(400);
    expect(patch.body.code).toBe('mcp.url_not_allowed');
  });

  it('refuses a duplicate slug and builtin slugs with 409', async () => {
    await create(base('dup-one'));
    const dup = await create(base('dup-one'));
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('mcp.slug_taken');
    for (const slug of ['deepwiki-official', 'knowledge']) {
      const res = await create(base(slug));
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('mcp.builtin_slug');
    }
  });

  it('shows users only the summary of enabled servers, and refuses them every admin route', async () => {
    await create(base('hidden-one'));
    await ctx.http.put('/api/system/mcp-servers/hidden-one/status').set(auth(admin)).send({ enabled: false });
    const list = await ctx.http.get('/api/system/mcp-servers').set(auth(user));
    expect(list.status).toBe(200);
    const items = list.body.items as Record<string, unknown>[];
    expect(items.map((i) => i.slug)).toContain('docs-one');
    expect(items.map((i) => i.slug)).not.toContain('hidden-one');
    expect(items.map((i) => i.slug)).not.toContain('deepwiki-official'); // builtin, disabled
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['description', 'enabled', 'icon', 'name', 'slug', 'tags']);
      expect(item.enabled).toBe(true);
    }

    const attempts = [
      create(base('by-user'), user),
      ctx.http.get('/api/system/mcp-servers/docs-one').set(auth(user)),
      ctx.http.patch('/api/system/mcp-servers/docs-one').set(auth(user)).send({ name: 'x' }),
      ctx.http.delete('/api/system/mcp-servers/docs-one').set(auth(user)),
      ctx.http.put('/api/system/mcp-servers/docs-one/status').set(auth(user)).send({ enabled: false }),
    ];
    for (const res of await Promise.all(attempts)) expect(res.status).toBe(403);
    const [row] = await ctx.dataSource.query<{ name: string; enabled: boolean }[]>(
      `SELECT name, enabled FROM mcp_servers WHERE slug = 'docs-one'`,
    );
    expect(row).toEqual({ name: 'Server docs-one', enabled: true });
    expect(await ctx.dataSource.query(`SELECT 1 FROM mcp_servers WHERE slug = 'by-user'`)).toHaveLength(0);
    expect((await ctx.http.get('/api/system/mcp-servers').set({})).status).toBe(401);
  });

  it('keeps the slug immutable, deletes custom servers and 404s unknown ones', async () => {
    await create(base('to-delete'));
    const rename = await ctx.http
      .patch('/api/system/mcp-servers/to-delete')
      .set(auth(admin))
      .send({ slug: 'x' });
    expect(rename.status).toBe(400);
    expect((await ctx.http.delete('/api/system/mcp-servers/to-delete').set(auth(admin))).status).toBe(204);
    expect(await ctx.dataSource.query(`SELECT 1 FROM mcp_servers WHERE slug = 'to-delete'`)).toHaveLength(0);
    const missing = await ctx.http.get('/api/system/mcp-servers/to-delete').set(auth(admin));
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('mcp.server_not_found');
  });

  it('syncs the builtin DeepWiki server disabled, and refuses editing or deleting it with 403', async () => {
    const res = await ctx.http.get('/api/system/mcp-servers/deepwiki-official').set(auth(admin));
    expect(res.body).toMatchObject({
      source: 'builtin',
      enabled: false,
      transport: 'streamable_http',
      url: 'https://mcp.deepwiki.com/mcp',
      created_by: null,
    });
    const patch = await ctx.http
      .patch('/api/system/mcp-servers/deepwiki-official')
      .set(auth(admin))
      .send({ url: 'https://evil.example.com/mcp' });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe('mcp.builtin_immutable');
    const del = await ctx.http.delete('/api/system/mcp-servers/deepwiki-official').set(auth(admin));
    expect(del.status).toBe(403);
    const status = await ctx.http
      .put('/api/system/mcp-servers/deepwiki-official/status')
      .set(auth(admin))
      .send({ enabled: true });
    expect(status.status).toBe(200);
    expect(status.body.enabled).toBe(true);
  });

  it('at start: restores builtin connection fields keeping status and disabled tools, deletes retired builtins, disables stdio rows', async () => {
    await ctx.dataSource.query(
      `UPDATE mcp_servers SET url = 'https://stale.example.com/mcp', enabled = true, disabled_tools = '["ask_question"]' WHERE slug = 'deepwiki-official'`,
    );
    await ctx.dataSource.query(
      `INSERT INTO mcp_servers (id, slug, name, transport, url, source, enabled, created_by)
       VALUES (gen_random_uuid(), 'mcp-server-chart', 'Chart', 'stdio', 'npx chart', 'builtin', true, NULL),
              (gen_random_uuid(), 'legacy-local', 'Legacy', 'stdio', 'npx local', 'custom', true, $1)`,
      [admin.id],
    );
    await ctx.restart();
    const rows = await ctx.dataSource.query<
      { slug: string; url: string; enabled: boolean; disabled_tools: string[] }[]
    >(
      `SELECT slug, url, enabled, disabled_tools FROM mcp_servers WHERE slug IN ('deepwiki-official', 'mcp-server-chart', 'legacy-local') ORDER BY slug`,
    );
    expect(rows).toEqual([
      {
        slug: 'deepwiki-official',
        url: 'https://mcp.deepwiki.com/mcp',
        enabled: true,
        disabled_tools: ['ask_question'],
      },
      { slug: 'legacy-local', url: 'npx local', enabled: false, disabled_tools: [] },
    ]);
    const enable = await ctx.http
      .put('/api/system/mcp-servers/legacy-local/status')
      .set(auth(admin))
      .send({ enabled: true });
    expect(enable.status).toBe(409);
    expect(enable.body.code).toBe('mcp.transport_not_supported');
  });

  it('two concurrent syncs leave one row per builtin and insert a new builtin disabled', async () => {
    const sync = ctx.app.get(BuiltinMcpSync);
    const definitions = {
      'extra-builtin': {
        name: 'Extra',
        description: 'A new definition.',
        transport: 'sse' as const,
        url: 'https://extra.example.com/sse',
        icon: '🧩',
        tags: ['builtin'],
      },
    };
    await Promise.all([sync.sync(definitions, []), sync.sync(definitions, [])]);
    const rows = await ctx.dataSource.query<{ enabled: boolean; source: string }[]>(
      `SELECT enabled, source FROM mcp_servers WHERE slug = 'extra-builtin'`,
    );
    expect(rows).toEqual([{ enabled: false, source: 'builtin' }]);
  });

  it('lets an agent select enabled servers in mcps and refuses unknown or disabled ones with 422', async () => {
    const ok = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'With MCP', config: { mcps: ['docs-one'] } });
    expect(ok.status).toBe(201);
    expect(ok.body.config.mcps).toEqual(['docs-one']);
    const bad = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'With hidden MCP', config: { mcps: ['hidden-one', 'nope'] } });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'agents.unknown_reference', details: { field: 'mcps' } });
  });
});
