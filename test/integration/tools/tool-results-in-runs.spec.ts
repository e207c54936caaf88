import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { eventually, runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { type RuntimeContext, startRuntime } from '../../support/runs/runtime-context';
import { workdirFile } from '../../support/runs/workdir-files';
import type { TestUser } from '../../support/test-app';
import { type FakeVendor, startFakeTavily } from '../../support/web-search/fake-vendors';

const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

const TAVILY_KEY = 'tvly-large-results-1234';
const HUGE_URL = 'https://example.com/huge';
/** 2 MiB of page, far above the large-result threshold, with recognisable ends. */
const HUGE_PAGE = `HEAD-MARK ${'x'.repeat(2 * 1024 * 1024)} TAIL-MARK`;

describe('tool results in runs: every source, any text, any end', () => {
  let runtime: RuntimeContext;
  let tavily: FakeVendor;
  let admin: TestUser;
  let user: TestUser;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    tavily = await startFakeTavily(TAVILY_KEY, { results: [], pages: { [HUGE_URL]: HUGE_PAGE } });
    runtime = await startRuntime({
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      TAVILY_BASE_URL: tavily.baseUrl,
      TAVILY_API_KEY: TAVILY_KEY,
    });
    admin = await runtime.ctx.newUser({ role: 'admin' });
    user = await runtime.ctx.newUser();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        { name: 'nul_text', handler: () => ({ content: [{ type: 'text', text: 'a\u0000b' }] }) },
        { name: 'lone_surrogate', handler: () => ({ content: [{ type: 'text', text: 'a\ud800b' }] }) },
        { name: 'patient_op', handler: (_args, signal) => never(signal) },
      ],
    });
    const added = await runtime.ctx.http.post('/api/system/mcp-servers').set(auth(admin)).send({
      slug: 'odd',
      name: 'odd',
      transport: 'streamable_http',
      url: mcp.url,
      sse_read_timeout_s: 120,
    });
    expect(added.status).toBe(201);
  });
  // A run that fails leaves its later replies unused: each test starts from its own script.
  beforeEach(() => runtime.fake.clearScript());
  afterAll(async () => {
    await runtime.close();
    await mcp.close();
    await tavily.close();
  });

  async function agentWith(config: Record<string, unknown>): Promise<string> {
    return (await runtime.ctx.newAgent(user, { config })).slug;
  }

  async function runToEnd(threadId: string, input: string) {
    const { ctx } = runtime;
    const run = await startRun(ctx, user, threadId, { input });
    const status = await waitForStatus(ctx, run.run_id, isTerminal);
    return { runId: run.run_id, status };
  }

  const auditRows = async (runId: string) => {
    await runtime.ctx.app.get(ToolCallAuditWriter).flush();
    return runtime.ctx.dataSource.query<{ tool_call_id: string; outcome: string; error_code: string }[]>(
      `SELECT tool_call_id, outcome, error_code FROM tool_calls WHERE run_id = $1`,
      [runId],
    );
  };

  it('audits a call ended by the run being cancelled as cancelled, not as an error', async () => {
    const { ctx } = runtime;
    const threadId = await newThread(ctx, user, await agentWith({ mcps: ['odd'] }));
    runtime.fake.script({ toolCalls: [{ id: 'call_patient', name: 'patient_op', args: {} }] });
    const run = await startRun(ctx, user, threadId, { input: 'wait' });
    await eventually(
      () => Promise.resolve(mcp.calls('patient_op')),
      (calls) => calls.length > 0,
    );
    const cancel = await ctx.http.post(`/api/runs/${run.run_id}/cancel`).set(auth(user));
    expect(cancel.status).toBeLessThan(300);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('cancelled');
    expect(await auditRows(run.run_id)).toEqual([
      { tool_call_id: 'call_patient', outcome: 'cancelled', error_code: 'tools.cancelled' },
    ]);
  });

  it('stores an MCP text result holding a raw NUL and goes on with the run', async () => {
    const threadId = await newThread(runtime.ctx, user, await agentWith({ mcps: ['odd'] }));
    runtime.fake.script({ toolCalls: [{ id: 'call_nul', name: 'nul_text', args: {} }] }, { text: 'read it' });
    const { runId, status } = await runToEnd(threadId, 'nul please');
    expect({ status, error: (await runRow(runtime.ctx, runId)).error }).toEqual({
      status: 'completed',
      error: null,
    });
    const answer = toolAnswer(runtime.fake.requests.at(-1)!.body.messages, 'call_nul');
    expect(answer?.content).toBe('a\uFFFDb');
    const [result] = (await storedEvents(runtime.ctx, runId)).filter((e) => e.type === 'tool_result');
    expect(result.payload.content).toBe('a\uFFFDb');
    const messages = await runtime.ctx.dataSource.query<{ content: string }[]>(
      `SELECT content FROM messages WHERE thread_id = $1 AND role = 'tool'`,
      [threadId],
    );
    expect(messages.map((m) => m.content)).toEqual(['a\uFFFDb']);
  });

  it('stores an MCP text result holding a lone surrogate and goes on with the run', async () => {
    const threadId = await newThread(runtime.ctx, user, await agentWith({ mcps: ['odd'] }));
    runtime.fake.script(
      { toolCalls: [{ id: 'call_lone', name: 'lone_surrogate', args: {} }] },
      { text: 'read it' },
    );
    const { runId, status } = await runToEnd(threadId, 'surrogate please');
    expect({ status, error: (await runRow(runtime.ctx, runId)).error }).toEqual({
      status: 'completed',
      error: null,
    });
    const answer = toolAnswer(runtime.fake.requests.at(-1)!.body.messages, 'call_lone');
    expect(answer?.content).toBe('a\uFFFDb');
  });

  it('stores a model reply and tool call arguments holding NUL and goes on with the run', async () => {
    const threadId = await newThread(runtime.ctx, user, await agentWith({ tools: ['read_file'] }));
    runtime.fake.script(
      {
        text: 'look\u0000',
        toolCalls: [{ id: 'call_arg', name: 'read_file', args: { file_path: 'a\u0000b' } }],
      },
      { text: 'hello\u0000world' },
    );
    const { runId, status } = await runToEnd(threadId, 'nul from the model');
    expect({ status, error: (await runRow(runtime.ctx, runId)).error }).toEqual({
      status: 'completed',
      error: null,
    });
    const messages = await runtime.ctx.dataSource.query<
      { role: string; content: string; tool_calls: unknown }[]
    >(
      `SELECT role, content, tool_calls FROM messages WHERE thread_id = $1 AND role = 'assistant' ORDER BY position`,
      [threadId],
    );
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: 'look\uFFFD',
        tool_calls: [{ id: 'call_arg', name: 'read_file', args: { file_path: 'a\uFFFDb' } }],
      },
      { role: 'assistant', content: 'hello\uFFFDworld', tool_calls: null },
    ]);
  });

  it('reads a text file whose NUL lies past the binary sniff without failing the run', async () => {
    const threadId = await newThread(runtime.ctx, user, await agentWith({ tools: ['read_file'] }));
    const onDisk = workdirFile(runtime.ctx, user.id, threadId, 'late-nul.txt');
    await mkdir(dirname(onDisk), { recursive: true });
    await writeFile(onDisk, `${'t'.repeat(9_000)}\nafter\u0000nul\n`);
    runtime.fake.script(
      { toolCalls: [{ id: 'call_read', name: 'read_file', args: { file_path: 'late-nul.txt' } }] },
      { text: 'done' },
    );
    const { runId, status } = await runToEnd(threadId, 'read it');
    expect({ status, error: (await runRow(runtime.ctx, runId)).error }).toEqual({
      status: 'completed',
      error: null,
    });
    const answer = toolAnswer(runtime.fake.requests.at(-1)!.body.messages, 'call_read');
    expect(answer?.content).toContain('after\uFFFDnul');
  });

  it('saves a huge web_fetch page in the workdir and gives the model its head, its tail and the path', async () => {
    const threadId = await newThread(runtime.ctx, user, await agentWith({ tools: ['web_fetch'] }));
    runtime.fake.script(
      { toolCalls: [{ id: 'call_huge', name: 'web_fetch', args: { url: HUGE_URL } }] },
      { text: 'summarised' },
    );
    const { status } = await runToEnd(threadId, 'fetch it');
    expect(status).toBe('completed');
    const answer = toolAnswer(runtime.fake.requests.at(-1)!.body.messages, 'call_huge');
    const content = answer?.content as string;
    expect(content.length).toBeLessThan(10_000);
    expect(content).toContain('HEAD-MARK');
    expect(content).toContain('TAIL-MARK');
    const name = /large_tool_results\/(web_fetch-[0-9a-f]{16}\.txt)/.exec(content)?.[1];
    expect(name).toBeDefined();
    expect(content).toContain(`/home/gem/user-data/workdir/t-${threadId}/large_tool_results/${name}`);
    const saved = await readFile(
      workdirFile(runtime.ctx, user.id, threadId, `large_tool_results/${name}`),
      'utf8',
    );
    expect(saved.length).toBeGreaterThan(HUGE_PAGE.length);
    expect(saved).toContain(HUGE_PAGE);
  });
});
