import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { RecordedRequest } from '../../support/fake-openai/fake-openai-script';
import { settledKbFile, uploadKbFile } from '../../support/knowledge';
import {
  knowledgeClient,
  knowledgeMcpEnvironment,
  listen,
  mint,
} from '../../support/knowledge/knowledge-mcp';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const KNOWLEDGE_TOOLS = ['find_kb_document', 'list_kbs', 'open_kb_document', 'query_kb', 'search_file'];
type Json = Record<string, unknown>;

describe('knowledge tools in runs, through the real /mcp/knowledge endpoint', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let url: string;
  let admin: TestUser;
  let owner: TestUser;
  let runner: TestUser;
  let kb: string;
  let file: string;
  let withSkill: string;
  let withoutSkill: string;

  beforeAll(async () => {
    const { port, url: endpoint, env } = await knowledgeMcpEnvironment();
    // Loopback allowed, as for intranet MCP servers: the knowledge URL must still be refused to admins.
    ({ fake, ctx, close } = await startRuntime({ ...env, ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1' }));
    await listen(ctx, port);
    url = endpoint;
    admin = await ctx.newUser({ role: 'admin' });
    owner = await ctx.newUser();
    runner = await ctx.newUser();
    // Readable by the runner only: the agent's owner could not see it, so what the tools reach shows
    // whom the delegation speaks for.
    kb = await ctx.newKb(admin, {
      name: 'HR',
      description: 'Human resources',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [runner.id] }, manage_scope: null },
    });
    const uploaded = await uploadKbFile(
      ctx,
      admin,
      kb,
      'leave-policy.md',
      '# Leave\n\n公司的年假制度：员工每年享有十五天带薪年假。\n\nSick leave needs a note after three days.\n',
    );
    expect((await settledKbFile(ctx, admin, kb, uploaded.file_id)).status).toBe('indexed');
    file = uploaded.file_id;
    withSkill = await agent('With knowledge', {
      skills: ['knowledge-base'],
      preload_skills: ['knowledge-base'],
      knowledges: 'all',
      tools: [],
    });
    withoutSkill = await agent('Without knowledge', { skills: [], knowledges: 'all', tools: [] });
  });
  afterAll(() => close());

  async function agent(name: string, config: Json): Promise<string> {
    const shareConfig = {
      version: 2,
      read_scope: { level: 'users', user_ids: [runner.id] },
      manage_scope: null,
    };
    return (await ctx.newAgent(owner, { name, config, share_config: shareConfig })).slug;
  }

  async function run(agentSlug: string, input = 'look it up') {
    const threadId = await newThread(ctx, runner, agentSlug);
    const started = await startRun(ctx, runner, threadId, { input });
    const status = await waitForStatus(ctx, started.run_id, isTerminal);
    return { runId: started.run_id, threadId, status, events: await storedEvents(ctx, started.run_id) };
  }

  const answerOf = (request: RecordedRequest, id: string) => {
    const content = toolAnswer(request.body.messages, id)?.content;
    return JSON.parse(typeof content === 'string' ? content : '{}') as Json & { error?: Json };
  };

  it('is offered exactly the five knowledge tools with the schemas the server lists, and calls each as the running user', async () => {
    fake.script({ text: 'baseline' });
    const before = fake.requests.length;
    expect((await run(withoutSkill)).status).toBe('completed');
    const baseline = new Set(offeredTools(fake.requests[before]));

    fake.script(
      {
        toolCalls: [
          { id: 'c_list', name: 'list_kbs', args: {} },
          { id: 'c_query', name: 'query_kb', args: { kb_id: kb, query: '年假有几天', top_k: 3 } },
          { id: 'c_search', name: 'search_file', args: { query: 'LEAVE' } },
          { id: 'c_find', name: 'find_kb_document', args: { kb_id: kb, file_id: file, patterns: ['sick'] } },
          { id: 'c_open', name: 'open_kb_document', args: { kb_id: kb, file_id: file, line: 3 } },
        ],
      },
      { text: 'done' },
    );
    const at = fake.requests.length;
    const { status, runId, threadId } = await run(withSkill);
    expect(status).toBe('completed');
    const [first, second] = fake.requests.slice(at);

    const added = offeredTools(first).filter((name) => !baseline.has(name));
    expect(added.sort()).toEqual(KNOWLEDGE_TOOLS);
    const client = await knowledgeClient(url, mint(ctx, { userId: runner.id }));
    const listed = (await client.listTools()).tools;
    await client.close();
    for (const tool of listed) {
      const shown = first.body.tools!.find((t) => t.function.name === tool.name)!;
      expect(shown.function.parameters).toEqual(tool.inputSchema);
    }
    expect(first.body.messages.map((m) => m.content).join('\n')).toContain('# Knowledge base');

    expect(answerOf(second, 'c_list')).toEqual({
      knowledge_bases: [{ kb_id: kb, name: 'HR', description: 'Human resources' }],
    });
    const query = answerOf(second, 'c_query') as { results: Json[] };
    expect(query.results[0]).toMatchObject({ kb_id: kb, file_id: file, filename: 'leave-policy.md' });
    expect(query.results[0].content).toContain('十五天带薪年假');
    expect((answerOf(second, 'c_search') as { files: Json[] }).files.map((f) => f.file_id)).toEqual([file]);
    const find = answerOf(second, 'c_find') as { windows: { content: string }[] };
    expect(find.windows[0].content).toContain('Sick leave needs a note');
    const open = answerOf(second, 'c_open') as Json & { content: string };
    expect(open).toMatchObject({ start_line: 3, has_more_before: true });
    expect(open.content.split('\n')[0]).toBe('3\t公司的年假制度：员工每年享有十五天带薪年假。');

    await ctx.app.get(ToolCallAuditWriter).flush(); // audit rows are written in batches
    const audit = await ctx.dataSource.query<{ tool_name: string; outcome: string; user_id: string }[]>(
      `SELECT tool_name, outcome, user_id FROM tool_calls WHERE run_id = $1 ORDER BY tool_name`,
      [runId],
    );
    expect(audit).toEqual(
      KNOWLEDGE_TOOLS.map((name) => ({ tool_name: name, outcome: 'ok', user_id: runner.id })),
    );
    expect(threadId).toBeDefined();
  });

  it('refuses the next call of a run whose user lost read access mid-run', async () => {
    fake.script(
      { toolCalls: [{ id: 'r_1', name: 'query_kb', args: { kb_id: kb, query: 'sick leave' } }] },
      { toolCalls: [{ id: 'r_2', name: 'query_kb', args: { kb_id: kb, query: 'sick leave' } }] },
      { text: 'done' },
    );
    const at = fake.requests.length;
    const hold = fake.holdRequest(at + 2);
    const threadId = await newThread(ctx, runner, withSkill);
    const started = await startRun(ctx, runner, threadId, { input: 'twice' });
    await hold.arrived;
    await ctx.dataSource.query(
      `UPDATE knowledge_bases SET share_config = jsonb_set(share_config, '{read_scope}', '{"level":"users","user_ids":[]}') WHERE id = $1`,
      [kb],
    );
    hold.release();
    try {
      expect(await waitForStatus(ctx, started.run_id, isTerminal)).toBe('completed');
      const [, second, third] = fake.requests.slice(at);
      expect(answerOf(second, 'r_1').results).toEqual(
        expect.arrayContaining([expect.objectContaining({ file_id: file })]),
      );
      const refused = answerOf(third, 'r_2');
      expect(refused.error).toMatchObject({ code: 'mcp.tool_error' });
      expect(JSON.parse(refused.error!.message as string)).toMatchObject({
        error: { code: 'knowledge.not_found' },
      });
    } finally {
      await ctx.dataSource.query(
        `UPDATE knowledge_bases SET share_config = jsonb_set(share_config, '{read_scope}', $2::jsonb) WHERE id = $1`,
        [kb, JSON.stringify({ level: 'users', user_ids: [runner.id] })],
      );
    }
  });

  it('with Knowledge switched off keeps the record, binds none of the tools and says the server is unavailable', async () => {
    const off = await ctx.http
      .put('/api/system/settings/knowledge')
      .set(auth(admin))
      .send({ enabled: false });
    expect(off.status).toBe(200);
    try {
      fake.script({ text: 'no knowledge' });
      const at = fake.requests.length;
      const { status, events } = await run(withSkill);
      expect(status).toBe('completed');
      const offered = offeredTools(fake.requests[at]);
      expect(offered.filter((name) => KNOWLEDGE_TOOLS.includes(name))).toEqual([]);
      expect(events.filter((e) => e.type === 'unavailable').map((e) => e.payload)).toEqual([
        expect.objectContaining({ component: 'mcp', server: 'knowledge', code: 'mcp.server_unavailable' }),
      ]);
      const [record] = await ctx.dataSource.query<{ enabled: boolean }[]>(
        `SELECT enabled FROM mcp_servers WHERE slug = 'knowledge'`,
      );
      expect(record).toEqual({ enabled: true });
    } finally {
      await ctx.http.put('/api/system/settings/knowledge').set(auth(admin)).send({ enabled: true });
    }
  });

  it('is a builtin record, enabled by default, whose connection and credentials no admin can set', async () => {
    const record = await ctx.http.get('/api/system/mcp-servers/knowledge').set(auth(admin));
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      slug: 'knowledge',
      source: 'builtin',
      enabled: true,
      url,
      headers: {},
    });
    const patch = await ctx.http
      .patch('/api/system/mcp-servers/knowledge')
      .set(auth(admin))
      .send({ headers: { Authorization: 'Bearer mine' } });
    expect(patch.status).toBe(403);
    expect(patch.body.code).toBe('mcp.builtin_immutable');

    const tools = await ctx.http.get('/api/system/mcp-servers/knowledge/tools').set(auth(admin));
    expect(tools.status).toBe(200);
    expect((tools.body.items as Json[]).map((t) => t.name).sort()).toEqual(KNOWLEDGE_TOOLS);
    const test = await ctx.http.post('/api/system/mcp-servers/knowledge/test').set(auth(admin));
    expect(test.body).toMatchObject({ ok: true });
  });

  it('refuses an admin-made server pointing at the knowledge endpoint, even where loopback is allowed', async () => {
    for (const target of [url, `${url}/`, url.replace('/mcp/knowledge', '/MCP/Knowledge')]) {
      const res = await ctx.http
        .post('/api/system/mcp-servers')
        .set(auth(admin))
        .send({ slug: 'sneaky', name: 'sneaky', transport: 'streamable_http', url: target });
      expect({ target, status: res.status, code: res.body.code }).toEqual({
        target,
        status: 400,
        code: 'mcp.url_not_allowed',
      });
    }
  });
  it('never connects a custom record to the knowledge endpoint, even one whose URL was changed behind the API', async () => {
    const created = await ctx.http
      .post('/api/system/mcp-servers')
      .set(auth(admin))
      .send({ slug: 'moved', name: 'moved', transport: 'streamable_http', url: 'http://127.0.0.1:9/mcp' });
    expect(created.status).toBe(201);
    await ctx.dataSource.query(`UPDATE mcp_servers SET url = $1 WHERE slug = 'moved'`, [url]);
    const test = await ctx.http.post('/api/system/mcp-servers/moved/test').set(auth(admin));
    expect(test.body).toMatchObject({ ok: false, error: { code: 'mcp.url_not_allowed' } });
  });
});
