import { z } from 'zod';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { PlainHttpServer } from '../../support/mcp/plain-http-servers';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { eventually, runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

describe('MCP tools in runs', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let admin: TestUser;
  let user: TestUser;
  const servers: { close(): Promise<void> }[] = [];
  let normal: TestMcpServer;
  let legacy: TestMcpServer;
  let slow: TestMcpServer;
  let failing: TestMcpServer;
  let clashing: TestMcpServer;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({ ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }));
    admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    normal = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        { name: 'lookup', description: 'Looks up a term.', input: { term: z.string() } },
        { name: 'erase', description: 'Erases everything.' },
        {
          name: 'report',
          handler: () => ({
            content: [
              { type: 'text', text: 'chart ready' },
              { type: 'image', data: Buffer.from('png-bytes').toString('base64'), mimeType: 'image/png' },
            ],
            structuredContent: { rows: 3 },
          }),
        },
      ],
    });
    legacy = await TestMcpServer.start({
      transport: 'sse',
      tools: [{ name: 'legacy_echo', input: { text: z.string() } }],
    });
    slow = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'slow_op', handler: (_args, signal) => never(signal) }],
    });
    failing = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        {
          name: 'explode',
          handler: () => ({ isError: true, content: [{ type: 'text', text: 'boom: disk full' }] }),
        },
      ],
    });
    clashing = await TestMcpServer.start({ transport: 'streamable_http', tools: [{ name: 'write_file' }] });
    servers.push(normal, legacy, slow, failing, clashing);
    await addServer('normal', normal.url);
    await addServer('legacy', legacy.url, { transport: 'sse' });
    await addServer('slow', slow.url, { sse_read_timeout_s: 0.5 });
    await addServer('failing', failing.url);
    await addServer('clashing', clashing.url);
  });

  afterAll(async () => {
    await close();
    for (const server of servers) await server.close();
  });

  async function addServer(slug: string, url: string, extra: Record<string, unknown> = {}) {
    const res = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug, name: slug, transport: 'streamable_http', url, ...extra });
    if (res.status !== 201) throw new Error(`server not created: ${res.status} ${JSON.stringify(res.body)}`);
  }

  async function agentWith(mcps: string[], tools: string[] | 'all' = []): Promise<string> {
    return (await ctx.newAgent(user, { name: `MCP agent ${mcps.join(' ')}`, config: { mcps, tools } })).slug;
  }

  async function run(agentSlug: string, input: string) {
    const threadId = await newThread(ctx, user, agentSlug);
    const started = await startRun(ctx, user, threadId, { input });
    const status = await waitForStatus(ctx, started.run_id, isTerminal);
    return { runId: started.run_id, status, events: await storedEvents(ctx, started.run_id) };
  }

  it("offers the selected servers' tools, sends a call with its arguments and gives the result to the model", async () => {
    const agent = await agentWith(['normal', 'legacy']);
    const before = fake.requests.length;
    fake.script(
      {
        toolCalls: [
          { id: 'call_lookup', name: 'lookup', args: { term: 'lease' } },
          { id: 'call_legacy', name: 'legacy_echo', args: { text: 'over sse' } },
          { id: 'call_report', name: 'report', args: {} },
        ],
      },
      { text: 'done' },
    );
    const { status } = await run(agent, 'use the tools');
    expect(status).toBe('completed');
    const [first, second] = fake.requests.slice(before);
    expect(offeredTools(first)).toEqual(expect.arrayContaining(['lookup', 'erase', 'report', 'legacy_echo']));
    const lookup = first.body.tools!.find((t) => t.function.name === 'lookup')!;
    expect(lookup.function.parameters).toMatchObject({
      type: 'object',
      properties: { term: { type: 'string' } },
    });

    expect(normal.calls('lookup').map((m) => m.params?.arguments)).toEqual([{ term: 'lease' }]);
    expect(legacy.calls('legacy_echo').map((m) => m.params?.arguments)).toEqual([{ text: 'over sse' }]);
    const shown = second.body.messages;
    expect(toolAnswer(shown, 'call_lookup')?.content).toBe('{"term":"lease"}');
    expect(toolAnswer(shown, 'call_legacy')?.content).toBe('{"text":"over sse"}');
    expect(toolAnswer(shown, 'call_report')?.content).toBe(
      'chart ready\n[image: image/png, 9 bytes, not shown]\n{"rows":3}',
    );
    // Audit rows are written in batches: read them once everything recorded so far is stored.
    await ctx.app.get(ToolCallAuditWriter).flush();
    const audit = await ctx.dataSource.query<{ tool_name: string; outcome: string }[]>(
      `SELECT tool_name, outcome FROM tool_calls WHERE tool_call_id = 'call_lookup'`,
    );
    expect(audit).toEqual([{ tool_name: 'lookup', outcome: 'ok' }]);
  });

  it('neither offers nor executes a disabled tool; the server never sees the call', async () => {
    const off = await ctx.http
      .put('/api/system/mcp-servers/normal/tools/erase/status')
      .set(auth(admin))
      .send({ enabled: false });
    expect(off.status).toBe(204);
    const agent = await agentWith(['normal']);
    const before = fake.requests.length;
    fake.script({ toolCalls: [{ id: 'call_erase', name: 'erase', args: {} }] }, { text: 'ok' });
    const { status, events } = await run(agent, 'erase it');
    expect(status).toBe('completed');
    const [first] = fake.requests.slice(before);
    expect(offeredTools(first)).toContain('lookup');
    expect(offeredTools(first)).not.toContain('erase');
    const result = events.find((e) => e.type === 'tool_result')!.payload;
    expect(result).toMatchObject({ tool_call_id: 'call_erase', is_error: true });
    expect(JSON.parse(result.content as string).error.code).toBe('tools.not_executable');
    expect(normal.calls('erase')).toHaveLength(0);
    await ctx.http
      .put('/api/system/mcp-servers/normal/tools/erase/status')
      .set(auth(admin))
      .send({ enabled: true });
  });

  it('turns an isError result into a tool error bound to its call', async () => {
    const agent = await agentWith(['failing']);
    fake.script({ toolCalls: [{ id: 'call_explode', name: 'explode', args: {} }] }, { text: 'noted' });
    const { status, events } = await run(agent, 'explode');
    expect(status).toBe('completed');
    const result = events.find((e) => e.type === 'tool_result')!.payload;
    expect(result.is_error).toBe(true);
    expect(JSON.parse(result.content as string).error).toMatchObject({
      code: 'mcp.tool_error',
      message: 'boom: disk full',
    });
  });

  it('on a call timeout sends notifications/cancelled for that request and reports tools.timeout', async () => {
    const agent = await agentWith(['slow']);
    fake.script({ toolCalls: [{ id: 'call_slow', name: 'slow_op', args: {} }] }, { text: 'gave up' });
    const { status, events } = await run(agent, 'be slow');
    expect(status).toBe('completed');
    const result = events.find((e) => e.type === 'tool_result')!.payload;
    expect(JSON.parse(result.content as string).error.code).toBe('tools.timeout');
    const call = slow.calls('slow_op')[0];
    const cancelled = await eventually(
      () => Promise.resolve(slow.received.filter((m) => m.method === 'notifications/cancelled')),
      (found) => found.length > 0,
    );
    expect(cancelled.map((m) => m.params?.requestId)).toEqual([call.id]);
  });

  it('on run cancellation sends notifications/cancelled for the call in flight', async () => {
    const patient = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'patient_op', handler: (_args, signal) => never(signal) }],
    });
    servers.push(patient);
    await addServer('patient', patient.url, { sse_read_timeout_s: 120 });
    const agent = await agentWith(['patient']);
    fake.script({ toolCalls: [{ id: 'call_patient', name: 'patient_op', args: {} }] });
    const threadId = await newThread(ctx, user, agent);
    const started = await startRun(ctx, user, threadId, { input: 'wait forever' });
    const [call] = await eventually(
      () => Promise.resolve(patient.calls('patient_op')),
      (calls) => calls.length > 0,
    );
    const cancel = await ctx.http.post(`/api/runs/${started.run_id}/cancel`).set(auth(user));
    expect(cancel.status).toBeLessThan(300);
    expect(await waitForStatus(ctx, started.run_id, isTerminal)).toBe('cancelled');
    const cancelled = await eventually(
      () => Promise.resolve(patient.received.filter((m) => m.method === 'notifications/cancelled')),
      (found) => found.length > 0,
    );
    expect(cancelled.map((m) => m.params?.requestId)).toEqual([call.id]);
  });

  it('discovers servers in parallel: a dead one is reported unavailable and the run goes on', async () => {
    const dead = await PlainHttpServer.silent();
    const lagging = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'lagging_tool' }],
      listDelayMs: 400,
    });
    servers.push(dead, lagging);
    await addServer('dead', dead.url, { timeout_s: 1 });
    await addServer('lagging', lagging.url);
    const agent = await agentWith(['dead', 'lagging', 'normal']);
    const before = fake.requests.length;
    fake.script({ text: 'fine without it' });
    const { status, events } = await run(agent, 'hello');
    expect(status).toBe('completed');
    const unavailable = events.filter((e) => e.type === 'unavailable').map((e) => e.payload);
    expect(unavailable).toEqual([
      { component: 'mcp', server: 'dead', reason: expect.any(String), code: 'mcp.timeout', available: false },
    ]);
    const [first] = fake.requests.slice(before);
    expect(offeredTools(first)).toEqual(expect.arrayContaining(['lagging_tool', 'lookup']));
    // The dead server was asked before the lagging one answered its list: discovery ran side by side.
    const deadAsked = dead.requests.length;
    expect(deadAsked).toBeGreaterThanOrEqual(1);
    const laggingList = lagging.received.find((m) => m.method === 'tools/list')!;
    expect(laggingList.at).toBeLessThanOrEqual(lagging.listAnsweredAt[0]);
  });

  it('reuses the connection across runs and reads the list again after tools/list_changed or a config change', async () => {
    const changing = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'first_tool' }],
    });
    const replacement = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'moved_tool' }],
    });
    servers.push(changing, replacement);
    await addServer('changing', changing.url);
    const agent = await agentWith(['changing']);
    const offeredNow = async () => {
      const before = fake.requests.length;
      fake.script({ text: 'ok' });
      expect((await run(agent, 'list')).status).toBe('completed');
      return offeredTools(fake.requests[before]);
    };
    expect(await offeredNow()).toContain('first_tool');
    expect(await offeredNow()).toContain('first_tool');
    expect(changing.methods().filter((m) => m === 'initialize')).toHaveLength(1);
    expect(changing.methods().filter((m) => m === 'tools/list')).toHaveLength(1);

    changing.addTool({ name: 'second_tool' });
    // The admin tool list reads through the same cache: it shows the new tool once the notification landed.
    await eventually(
      () => ctx.http.get('/api/system/mcp-servers/changing/tools').set(auth(admin)),
      (res) => (res.body.items as { name: string }[]).some((t) => t.name === 'second_tool'),
    );
    expect(await offeredNow()).toEqual(expect.arrayContaining(['first_tool', 'second_tool']));
    expect(changing.methods().filter((m) => m === 'tools/list')).toHaveLength(2);

    const patched = await ctx.http
      .patch('/api/system/mcp-servers/changing')
      .set(auth(admin))
      .send({ url: replacement.url });
    expect(patched.status).toBe(200);
    const offered = await offeredNow();
    expect(offered).toContain('moved_tool');
    expect(offered).not.toContain('first_tool');
  });

  it('leaves out an MCP tool named like a builtin tool (reported unavailable) and keeps the builtin', async () => {
    const agent = await agentWith(['clashing'], ['write_file']);
    const before = fake.requests.length;
    fake.script({ text: 'fine' });
    const { status, events } = await run(agent, 'write');
    expect(status).toBe('completed');
    expect(events.filter((e) => e.type === 'unavailable').map((e) => e.payload)).toEqual([
      expect.objectContaining({ component: 'mcp', server: 'clashing', code: 'mcp.tool_name_reserved' }),
    ]);
    expect(offeredTools(fake.requests[before]).filter((name) => name === 'write_file')).toHaveLength(1);
  });

  it('fails the run with tools.name_conflict when two MCP servers offer the same name', async () => {
    const twin = await TestMcpServer.start({ transport: 'streamable_http', tools: [{ name: 'lookup' }] });
    servers.push(twin);
    await addServer('twin', twin.url);
    const agent = await agentWith(['normal', 'twin']);
    const { runId, status } = await run(agent, 'look');
    expect(status).toBe('failed');
    expect((await runRow(ctx, runId)).error).toMatchObject({
      code: 'tools.name_conflict',
      details: { tool: 'lookup', sources: ['MCP server "normal"', 'MCP server "twin"'] },
    });
  });

  it('loads nothing from a server disabled after the agent selected it', async () => {
    await addServer('switched-off', normal.url.replace('/mcp', '/mcp?x=1'));
    const agent = await agentWith(['switched-off']);
    await ctx.http
      .put('/api/system/mcp-servers/switched-off/status')
      .set(auth(admin))
      .send({ enabled: false });
    const before = fake.requests.length;
    fake.script({ text: 'plain' });
    expect((await run(agent, 'hi')).status).toBe('completed');
    expect(offeredTools(fake.requests[before])).not.toContain('lookup');
  });
});
