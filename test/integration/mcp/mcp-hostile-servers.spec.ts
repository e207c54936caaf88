import type { ServerResponse } from 'node:http';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { TestMcpServer, type TestMcpServerOptions } from '../../support/mcp/mcp-test-server';
import { offeredTools } from '../../support/runs/model-requests';
import { eventually, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const MIB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function answer(res: ServerResponse, id: unknown, result: unknown): void {
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id, result }));
}

const tool = (name: string, description = '') => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
});

/** A server whose every `tools/list` page names one more page, after `delayMs`. */
function endlessPages(delayMs: number): TestMcpServerOptions['respond'] {
  let page = 0;
  return (message, _req, res) => {
    if (message.method !== 'tools/list') return false;
    page++;
    const current = page;
    setTimeout(
      () => answer(res, message.id, { tools: [tool(`t${current}`)], nextCursor: `p${current}` }),
      delayMs,
    );
    return true;
  };
}

describe('hostile MCP servers: endless lists, huge and endless bodies', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let user: TestUser;
  const servers: { close(): Promise<void> }[] = [];

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      MCP_MAX_RESPONSE_BYTES: String(MIB),
    }));
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
  });

  beforeEach(() => fake.clearScript());

  afterAll(async () => {
    await close();
    for (const server of servers) await server.close();
  });

  async function hostile(
    slug: string,
    options: Partial<TestMcpServerOptions>,
    extra: Record<string, unknown> = {},
  ) {
    const server = await TestMcpServer.start({ transport: 'streamable_http', tools: [], ...options });
    servers.push(server);
    const res = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug, name: slug, transport: 'streamable_http', url: server.url, ...extra });
    if (res.status !== 201) throw new Error(`server not created: ${res.status} ${JSON.stringify(res.body)}`);
    return server;
  }

  async function runWith(slug: string) {
    const agent = await ctx.newAgent(user, { name: `agent ${slug}`, config: { mcps: [slug] } });
    const threadId = await newThread(ctx, user, agent.slug);
    const before = fake.requests.length;
    fake.script({ text: 'done' });
    const started = await startRun(ctx, user, threadId, { input: 'go' });
    const status = await waitForStatus(ctx, started.run_id, isTerminal);
    const events = await storedEvents(ctx, started.run_id);
    return {
      status,
      events,
      offered: offeredTools(fake.requests[before]),
      // The MCP servers left out (the agent's default builtin tools without a vendor key are reported too).
      unavailable: events
        .filter((e) => e.type === 'unavailable')
        .map((e) => e.payload as { component: string })
        .filter((payload) => payload.component === 'mcp'),
    };
  }

  const lists = (server: TestMcpServer) => server.methods().filter((m) => m === 'tools/list').length;
  const test = (slug: string) => ctx.http.post(`/api/system/mcp-servers/${slug}/test`).set(auth(admin));

  it('stops reading an endless list at its timeout: the server sees no more requests afterwards', async () => {
    const slow = await hostile('endless-slow', { respond: endlessPages(100) }, { timeout_s: 1 });
    const { status, unavailable } = await runWith('endless-slow');
    expect(status).toBe('completed');
    expect(unavailable).toEqual([expect.objectContaining({ server: 'endless-slow', code: 'mcp.timeout' })]);
    await sleep(300); // a page asked just before the timeout is answered by now
    const atTimeout = lists(slow);
    await sleep(1_000);
    expect(lists(slow)).toBe(atTimeout);
    expect(atTimeout).toBeLessThanOrEqual(20);
  });

  it('refuses a list longer than 20 pages with mcp.tool_list_too_long, in runs and in the admin test', async () => {
    const fast = await hostile('endless-fast', { respond: endlessPages(0) }, { timeout_s: 10 });
    const { status, unavailable, offered } = await runWith('endless-fast');
    expect(status).toBe('completed');
    expect(unavailable).toEqual([
      expect.objectContaining({ server: 'endless-fast', code: 'mcp.tool_list_too_long' }),
    ]);
    expect(offered).not.toContain('t1');
    expect(lists(fast)).toBe(20);
    await sleep(300);
    expect(lists(fast)).toBe(20);

    const tested = await test('endless-fast');
    expect(tested.body).toMatchObject({ ok: false, error: { code: 'mcp.tool_list_too_long' } });
  });

  it('refuses a list of more than 500 tools with mcp.tool_list_too_long', async () => {
    await hostile('crowded', {
      respond: (message, _req, res) => {
        if (message.method !== 'tools/list') return false;
        answer(res, message.id, { tools: Array.from({ length: 501 }, (_, i) => tool(`c${i}`)) });
        return true;
      },
    });
    const { unavailable, offered } = await runWith('crowded');
    expect(unavailable).toEqual([
      expect.objectContaining({ server: 'crowded', code: 'mcp.tool_list_too_long' }),
    ]);
    expect(offered).not.toContain('c0');
    expect((await test('crowded')).body).toMatchObject({
      ok: false,
      error: { code: 'mcp.tool_list_too_long' },
    });
  });

  it('refuses a response body over MCP_MAX_RESPONSE_BYTES with mcp.response_too_large', async () => {
    await hostile('bloated', {
      respond: (message, _req, res) => {
        if (message.method !== 'tools/list') return false;
        answer(res, message.id, { tools: [tool('big', 'x'.repeat(2 * MIB))] });
        return true;
      },
    });
    const { unavailable, offered } = await runWith('bloated');
    expect(unavailable).toEqual([
      expect.objectContaining({ server: 'bloated', code: 'mcp.response_too_large' }),
    ]);
    expect(offered).not.toContain('big');
    expect((await test('bloated')).body).toMatchObject({
      ok: false,
      error: { code: 'mcp.response_too_large' },
    });
  });

  it('cuts a body that never ends once it passes the cap, and the admin test answers at once', async () => {
    let sent = 0;
    let closed = false;
    await hostile(
      'firehose',
      {
        respond: (message, _req, res) => {
          if (message.method !== 'tools/list') return false;
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(
            `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},"result":{"tools":[{"name":"f","description":"`,
          );
          const chunk = 'y'.repeat(64 * 1024);
          const timer = setInterval(() => {
            sent += chunk.length;
            res.write(chunk);
          }, 2);
          res.on('close', () => {
            closed = true;
            clearInterval(timer);
          });
          return true;
        },
      },
      { timeout_s: 5 },
    );
    const tested = await test('firehose');
    expect(tested.body).toMatchObject({ ok: false, error: { code: 'mcp.response_too_large' } });
    await eventually(
      () => Promise.resolve(closed),
      (done) => done,
    );
    expect(sent).toBeLessThan(8 * MIB);
  });

  it('answers a tool call whose streamed result passes the cap with a tool error; the run goes on', async () => {
    await hostile('huge-result', {
      tools: [{ name: 'dump' }],
      respond: (message, _req, res) => {
        if (message.method !== 'tools/call') return false;
        const result = { content: [{ type: 'text', text: 'z'.repeat(2 * MIB) }] };
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
        return true;
      },
    });
    const agent = await ctx.newAgent(user, { name: 'agent dump', config: { mcps: ['huge-result'] } });
    const threadId = await newThread(ctx, user, agent.slug);
    fake.script({ toolCalls: [{ id: 'call_dump', name: 'dump', args: {} }] }, { text: 'too big' });
    const started = await startRun(ctx, user, threadId, { input: 'dump' });
    expect(await waitForStatus(ctx, started.run_id, isTerminal)).toBe('completed');
    const result = (await storedEvents(ctx, started.run_id)).find((e) => e.type === 'tool_result')!.payload;
    expect(result.is_error).toBe(true);
    expect(JSON.parse(result.content as string).error.code).toBe('mcp.response_too_large');
  });
});
