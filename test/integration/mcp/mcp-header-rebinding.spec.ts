import { auth } from '../../support/runs/run-helpers';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { TestContext, type TestUser } from '../../support/test-app';

const OLD_SECRET = 'Bearer old-9a8b7c6d5e4f3210';

describe('stored MCP headers when an edit points the server elsewhere', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let home: TestMcpServer;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ctx = await TestContext.start({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' });
    admin = await ctx.newUser({ role: 'admin' });
    home = await TestMcpServer.start({ transport: 'streamable_http', tools: [{ name: 'lookup' }] });
    closers.push(() => home.close());
  });

  afterAll(async () => {
    await ctx.close();
    for (const close of closers) await close();
  });

  async function elsewhere(transport: 'streamable_http' | 'sse' = 'streamable_http') {
    const server = await TestMcpServer.start({ transport, tools: [{ name: 'lookup' }] });
    closers.push(() => server.close());
    return server;
  }

  async function create(slug: string) {
    const res = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({
        slug,
        name: slug,
        transport: 'streamable_http',
        url: home.url,
        headers: { Authorization: OLD_SECRET, 'X-Team': 'team-alpha-1' },
      });
    expect(res.status).toBe(201);
    return res.body as { headers: Record<string, string> };
  }

  const patch = (slug: string, body: Record<string, unknown>) =>
    ctx.http.patch(`/api/system/mcp-servers/${slug}`).set(auth(admin)).send(body);
  const test = (slug: string) => ctx.http.post(`/api/system/mcp-servers/${slug}/test`).set(auth(admin));
  const headerValues = (server: TestMcpServer) =>
    server.received.flatMap((m) => Object.values(m.headers).flat().map(String));

  it('drops the stored headers when the URL moves to another origin; the new server never sees them', async () => {
    await create('moved');
    const target = await elsewhere();
    const res = await patch('moved', { url: target.url });
    expect(res.status).toBe(200);
    expect(res.body.headers).toEqual({});
    const tested = await test('moved');
    expect(tested.body.ok).toBe(true);
    expect(target.received.length).toBeGreaterThan(0);
    expect(headerValues(target).join('\n')).not.toContain('old-9a8b7c6d5e4f3210');
    expect(headerValues(target)).not.toContain('team-alpha-1');
  });

  it('drops them too when only the transport changes, or when the redacted form is sent back', async () => {
    const shown = await create('retransported');
    const sse = await elsewhere('sse');
    const res = await patch('retransported', {
      transport: 'sse',
      url: sse.url,
      headers: { Authorization: shown.headers.Authorization },
    });
    expect(res.status).toBe(200);
    expect(res.body.headers).toEqual({});
    expect((await test('retransported')).body.ok).toBe(true);
    expect(headerValues(sse).join('\n')).not.toContain('old-9a8b7c6d5e4f3210');

    await create('same-url-new-transport');
    const other = await patch('same-url-new-transport', { transport: 'sse' });
    expect(other.status).toBe(200);
    expect(other.body.headers).toEqual({});
  });

  it('keeps headers re-sent in clear in the same PATCH, and keeps stored ones when the origin stays', async () => {
    await create('resent');
    const target = await elsewhere();
    const res = await patch('resent', { url: target.url, headers: { Authorization: OLD_SECRET } });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.headers)).toEqual(['Authorization']);
    expect((await test('resent')).body.ok).toBe(true);
    const initialize = target.received.find((m) => m.method === 'initialize')!;
    expect(initialize.headers.authorization).toBe(OLD_SECRET);
    expect(initialize.headers['x-team']).toBeUndefined();

    await create('same-origin');
    const samePath = await patch('same-origin', { url: `${home.url}?v=2` });
    expect(samePath.status).toBe(200);
    expect(Object.keys(samePath.body.headers).sort()).toEqual(['Authorization', 'X-Team']);
  });
});
