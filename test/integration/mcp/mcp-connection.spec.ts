import { Logger } from '@nestjs/common';
import { z } from 'zod';
import { auth } from '../../support/runs/run-helpers';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { PlainHttpServer } from '../../support/mcp/plain-http-servers';
import { TestContext, type TestUser } from '../../support/test-app';

const SECRET = 'Bearer tok-9f8e7d6c5b4a39281706';

/** Every argument given to a Nest logger method while the test runs, as one string. */
function captureLogs(): { text: () => string; restore: () => void } {
  const seen: unknown[] = [];
  const spies = (['log', 'warn', 'error', 'debug', 'verbose'] as const).map((level) =>
    jest.spyOn(Logger.prototype, level).mockImplementation(function (this: Logger, ...args: unknown[]) {
      seen.push(args);
    }),
  );
  return { text: () => JSON.stringify(seen), restore: () => spies.forEach((s) => s.mockRestore()) };
}

describe('connecting to MCP servers: test, tool list, per-tool switches', () => {
  let ctx: TestContext;
  let admin: TestUser;
  let streamable: TestMcpServer;
  let sse: TestMcpServer;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ctx = await TestContext.start({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' });
    admin = await ctx.newUser({ role: 'admin' });
    const tools = [
      {
        name: 'lookup',
        description: 'Looks something up.',
        input: { query: z.string() },
        annotations: { readOnlyHint: true, openWorldHint: false },
      },
      { name: 'erase', description: 'Erases.', annotations: { destructiveHint: true, idempotentHint: true } },
    ];
    streamable = await TestMcpServer.start({ transport: 'streamable_http', tools });
    sse = await TestMcpServer.start({ transport: 'sse', tools });
    closers.push(
      () => streamable.close(),
      () => sse.close(),
    );
  });

  afterAll(async () => {
    await ctx.close();
    for (const close of closers) await close();
  });

  async function addServer(slug: string, url: string, extra: Record<string, unknown> = {}) {
    const res = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug, name: slug, transport: 'streamable_http', url, ...extra });
    if (res.status !== 201) throw new Error(`server not created: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const test = (slug: string) => ctx.http.post(`/api/system/mcp-servers/${slug}/test`).set(auth(admin));

  it.each([
    ['streamable HTTP', 'streamable_http'],
    ['HTTP+SSE', 'sse'],
  ])(
    'a connection test over %s lists the tools and sends the headers to the server only',
    async (_n, transport) => {
      const server = transport === 'sse' ? sse : streamable;
      const slug = `ok-${transport.replace('_', '-')}`;
      await addServer(slug, server.url, { transport, headers: { Authorization: SECRET } });
      const res = await test(slug);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        ok: true,
        tools: [
          { name: 'lookup', description: 'Looks something up.' },
          { name: 'erase', description: 'Erases.' },
        ],
      });
      expect(typeof res.body.latency_ms).toBe('number');
      const initialize = server.received.find((m) => m.method === 'initialize')!;
      expect(initialize.headers.authorization).toBe(SECRET);
    },
  );

  it('reports an unreachable server with its real reason', async () => {
    // Port 1 on loopback: nothing listens there, and no test server can be given it (a port freed by
    // a closed server may be handed to another test's server meanwhile, which would then answer).
    await addServer('unreachable', 'http://127.0.0.1:1/mcp');
    const res = await test('unreachable');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: false,
      error: { code: 'mcp.connection_failed', message: expect.any(String) },
    });
  });

  it('reports a web page that is not an MCP endpoint as mcp.protocol_error', async () => {
    const page = await PlainHttpServer.webPage();
    closers.push(() => page.close());
    await addServer('web-page', page.url);
    const res = await test('web-page');
    expect(res.body).toMatchObject({ ok: false, error: { code: 'mcp.protocol_error' } });
  });

  it('reports a server that never answers as mcp.timeout within its timeout', async () => {
    const silent = await PlainHttpServer.silent();
    closers.push(() => silent.close());
    await addServer('silent', silent.url, { timeout_s: 0.5 });
    const res = await test('silent');
    expect(res.body).toMatchObject({ ok: false, error: { code: 'mcp.timeout' } });
  });

  it.each([
    ['127.0.0.2 (not on the allow list)', 'http://127.0.0.2:9/mcp'],
    ['the metadata address', 'http://169.254.169.254/latest'],
    ['a private 10.x address', 'http://10.0.0.7/mcp'],
  ])('refuses a redirect from an allowed server to %s', async (_n, location) => {
    const redirect = await PlainHttpServer.redirect(location);
    closers.push(() => redirect.close());
    const slug = `redirect-${redirect.url.split(':')[2].split('/')[0]}`;
    await addServer(slug, redirect.url);
    const res = await test(slug);
    expect(res.body).toMatchObject({ ok: false, error: { code: 'mcp.url_not_allowed' } });
    expect(redirect.requests).toHaveLength(1);
  });

  it('never sends the configured headers to a redirect target on another origin', async () => {
    const target = await PlainHttpServer.webPage();
    const redirect = await PlainHttpServer.redirect(target.url, 302);
    closers.push(
      () => target.close(),
      () => redirect.close(),
    );
    await addServer('cross-origin', redirect.url, {
      headers: { Authorization: SECRET, 'X-Api-Key': 'key-123456789' },
    });
    const res = await test('cross-origin');
    expect(res.body.ok).toBe(false);
    expect(redirect.requests[0].headers.authorization).toBe(SECRET);
    expect(target.requests.length).toBeGreaterThanOrEqual(1);
    for (const request of target.requests) {
      expect(request.headers.authorization).toBeUndefined();
      expect(request.headers['x-api-key']).toBeUndefined();
    }
  });

  it('keeps header values out of error messages and log lines even when the server echoes them', async () => {
    const echo = await PlainHttpServer.start((req, res) => {
      res.writeHead(400, { 'content-type': 'text/plain' }).end(`bad token ${req.headers.authorization}`);
    });
    closers.push(() => echo.close());
    await addServer('echo', echo.url, { headers: { Authorization: SECRET } });
    const logs = captureLogs();
    try {
      const res = await test('echo');
      expect(res.body.ok).toBe(false);
      expect(JSON.stringify(res.body)).not.toContain(SECRET);
      expect(JSON.stringify(res.body)).not.toContain('tok-9f8e7d6c5b4a39281706');
      const tools = await ctx.http.get('/api/system/mcp-servers/echo/tools').set(auth(admin));
      expect(tools.status).toBe(503);
      expect(tools.body.code).toBe('mcp.server_unavailable');
      expect(JSON.stringify(tools.body)).not.toContain('tok-9f8e7d6c5b4a39281706');
    } finally {
      logs.restore();
    }
    expect(logs.text()).not.toContain('tok-9f8e7d6c5b4a39281706');
  });

  it('lists tools with enabled and annotations, and switches one tool off and on without touching others', async () => {
    await addServer('switches', streamable.url);
    const list = await ctx.http.get('/api/system/mcp-servers/switches/tools').set(auth(admin));
    expect(list.status).toBe(200);
    // In name order (the list pages by name).
    expect(list.body).toEqual({
      items: [
        expect.objectContaining({
          name: 'erase',
          enabled: true,
          annotations: { destructiveHint: true, idempotentHint: true },
        }),
        {
          name: 'lookup',
          description: 'Looks something up.',
          input_schema: expect.objectContaining({
            type: 'object',
            properties: { query: { type: 'string' } },
          }),
          enabled: true,
          annotations: { readOnlyHint: true, openWorldHint: false },
        },
      ],
      next_cursor: null,
    });

    const off = await ctx.http
      .put('/api/system/mcp-servers/switches/tools/erase/status')
      .set(auth(admin))
      .send({ enabled: false });
    expect(off.status).toBe(204);
    const [row] = await ctx.dataSource.query<{ disabled_tools: string[] }[]>(
      `SELECT disabled_tools FROM mcp_servers WHERE slug = 'switches'`,
    );
    expect(row.disabled_tools).toEqual(['erase']);
    const after = await ctx.http.get('/api/system/mcp-servers/switches/tools').set(auth(admin));
    expect(after.body.items.map((t: { name: string; enabled: boolean }) => [t.name, t.enabled])).toEqual([
      ['erase', false],
      ['lookup', true],
    ]);

    const unknown = await ctx.http
      .put('/api/system/mcp-servers/switches/tools/nope/status')
      .set(auth(admin))
      .send({ enabled: false });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('mcp.tool_not_found');

    const on = await ctx.http
      .put('/api/system/mcp-servers/switches/tools/erase/status')
      .set(auth(admin))
      .send({ enabled: true });
    expect(on.status).toBe(204);
    const [again] = await ctx.dataSource.query<{ disabled_tools: string[] }[]>(
      `SELECT disabled_tools FROM mcp_servers WHERE slug = 'switches'`,
    );
    expect(again.disabled_tools).toEqual([]);
  });

  it('refuses the connection routes to a normal user', async () => {
    const user = await ctx.newUser();
    const before = streamable.received.length;
    const attempts = await Promise.all([
      ctx.http.post('/api/system/mcp-servers/switches/test').set(auth(user)),
      ctx.http.get('/api/system/mcp-servers/switches/tools').set(auth(user)),
      ctx.http
        .put('/api/system/mcp-servers/switches/tools/lookup/status')
        .set(auth(user))
        .send({ enabled: false }),
    ]);
    for (const res of attempts) expect(res.status).toBe(403);
    expect(streamable.received.length).toBe(before);
    const [row] = await ctx.dataSource.query<{ disabled_tools: string[] }[]>(
      `SELECT disabled_tools FROM mcp_servers WHERE slug = 'switches'`,
    );
    expect(row.disabled_tools).toEqual([]);
  });
});
