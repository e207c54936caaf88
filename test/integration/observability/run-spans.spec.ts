import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { setContentCapture } from '../../../src/observability/tracing';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { insertFile, knowledgeMcpEnvironment, listen } from '../../support/knowledge/knowledge-mcp';
import { TestMcpServer } from '../../support/mcp/mcp-test-server';
import { Scrape } from '../../support/metrics/prometheus-text';
import { storedEvents } from '../../support/runs/run-event-rows';
import { freePort } from '../../support/free-port';
import { isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';
import { allAttributeText, InMemoryTracing, traceparentOf } from '../../support/tracing/in-memory-tracing';

/** Distinctive strings the model sends as arguments: a span may carry them only with content capture. */
const SECRET_TERM = 'quokka-term-5e1a';
const SECRET_COMMAND_TEXT = 'narwhal-cmd-77b0';
const SECRET_QUERY = 'axolotl leave policy';

const never = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));

describe('spans of a run: model calls, tool calls, MCP requests, sandbox commands, knowledge queries', () => {
  let tracing: InMemoryTracing;
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let mcp: TestMcpServer;
  let stalling: TestMcpServer;
  let kb: string;
  let agent: string;
  let metricsPort: number;

  beforeAll(async () => {
    tracing = InMemoryTracing.start();
    const { port, env } = await knowledgeMcpEnvironment();
    metricsPort = await freePort();
    ({ fake, ctx, close } = await startRuntime({
      ...env,
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
    }));
    await listen(ctx, port);
    const admin = await ctx.newUser({ role: 'admin' });
    user = await ctx.newUser();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        { name: 'lookup', description: 'Looks up a term.', input: { term: z.string() } },
        { name: 'explode', handler: () => ({ isError: true, content: [{ type: 'text', text: 'boom' }] }) },
      ],
    });
    await ctx.newMcpServer(admin, { slug: 'traced', url: mcp.url });
    stalling = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'stall', handler: (_args, signal) => never(signal) }],
    });
    await ctx.newMcpServer(admin, { slug: 'stalling', url: stalling.url, sse_read_timeout_s: 0.5 });
    kb = await ctx.newKb(admin, {
      name: 'Policies',
      share_config: { version: 2, read_scope: { level: 'users', user_ids: [user.id] }, manage_scope: null },
    });
    await insertFile(ctx, kb, {
      filename: 'leave.md',
      markdown: '# Leave\n\nThe axolotl leave policy grants fifteen days.\n\nSick leave needs a note.',
    });
    agent = (
      await ctx.newAgent(user, {
        name: 'Traced agent',
        config: {
          mcps: ['traced', 'stalling'],
          tools: ['execute'],
          skills: ['knowledge-base'],
          preload_skills: ['knowledge-base'],
          knowledges: 'all',
          approval: { default: 'auto', rules: [{ tool: 'execute', decision: 'allow' }] },
        },
      })
    ).slug;
  });

  afterAll(async () => {
    setContentCapture(false);
    await close();
    await mcp.close();
    await stalling.close();
    await tracing.stop();
  });

  beforeEach(() => tracing.reset());

  async function run(input: string): Promise<string> {
    const threadId = await newThread(ctx, user, agent);
    const started = await startRun(ctx, user, threadId, { input });
    expect(await waitForStatus(ctx, started.run_id, isTerminal)).toBe('completed');
    return started.run_id;
  }

  async function scrape(): Promise<Scrape> {
    return Scrape.of(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text());
  }

  const toolSpan = (name: string) => tracing.one(`execute_tool ${name}`, SpanKind.INTERNAL);
  const onlyChild = (parent: ReadableSpan, name: string) => {
    const children = tracing.childrenOf(parent).filter((span) => span.name === name);
    expect(children).toHaveLength(1);
    return children[0];
  };

  it('chains tool → MCP request and hands the MCP span to the server in headers and _meta', async () => {
    fake.script(
      {
        toolCalls: [
          { id: 'call_lookup', name: 'lookup', args: { term: SECRET_TERM } },
          { id: 'call_invented', name: 'summon_unicorn', args: {} },
          { id: 'call_explode', name: 'explode', args: {} },
          { id: 'call_stall', name: 'stall', args: {} },
        ],
        usage: { prompt_tokens: 321, completion_tokens: 54 },
      },
      { text: 'done', usage: { prompt_tokens: 400, completion_tokens: 9 } },
    );
    const before = mcp.calls('lookup').length;
    const metricsBefore = await scrape();
    await run('look it up');
    const metricsAfter = await scrape();

    const chats = tracing.named('chat fake-model', SpanKind.CLIENT);
    expect(
      chats.map((span) => [
        span.attributes['gen_ai.usage.input_tokens'],
        span.attributes['gen_ai.usage.output_tokens'],
        span.attributes['gen_ai.response.finish_reasons'],
      ]),
    ).toEqual([
      [321, 54, ['tool_calls']],
      [400, 9, ['stop']],
    ]);

    const tool = toolSpan('lookup');
    expect(tool.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'call_lookup',
      'yuxi.tool.source': 'mcp',
      'yuxi.mcp.server': 'traced',
      'yuxi.tool.outcome': 'ok',
    });
    const request = onlyChild(tool, 'mcp tools/call lookup');
    expect(request.kind).toBe(SpanKind.CLIENT);
    expect(request.attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'yuxi.mcp.server': 'traced',
      'gen_ai.tool.name': 'lookup',
      'yuxi.mcp.outcome': 'ok',
    });

    const [received] = mcp.calls('lookup').slice(before);
    expect(received.headers.traceparent).toBe(traceparentOf(request));
    expect((received.params?._meta as Record<string, unknown>).traceparent).toBe(traceparentOf(request));
    expect(tracing.named('mcp tools/list', SpanKind.CLIENT).length).toBeGreaterThan(0);

    const refused = toolSpan('(unknown)');
    expect(refused.attributes).toMatchObject({
      'gen_ai.tool.name': '(unknown)',
      'yuxi.tool.requested_name': 'summon_unicorn',
      'yuxi.tool.outcome': 'refused',
    });
    expect(refused.attributes['error.type']).toEqual(expect.stringMatching(/^tools\./));
    expect(refused.status.code).toBe(SpanStatusCode.ERROR);
    expect(tracing.childrenOf(refused)).toEqual([]);

    const failed = toolSpan('explode');
    expect(failed.attributes).toMatchObject({ 'yuxi.tool.outcome': 'error', 'error.type': 'mcp.tool_error' });
    expect(onlyChild(failed, 'mcp tools/call explode').attributes).toMatchObject({
      'yuxi.mcp.outcome': 'tool_error',
      'error.type': 'tool_error',
    });
    const stalled = onlyChild(toolSpan('stall'), 'mcp tools/call stall');
    expect(stalled.attributes).toMatchObject({ 'yuxi.mcp.outcome': 'timeout', 'error.type': '-32001' });
    expect(stalled.status.code).toBe(SpanStatusCode.ERROR);

    // The same requests, counted per server by how they ended (the invented tool reached no server).
    const MCP_CALLS = 'yuxi_mcp_tool_calls_total';
    expect({
      ok: metricsAfter.delta(metricsBefore, MCP_CALLS, { server: 'traced', outcome: 'ok' }),
      toolError: metricsAfter.delta(metricsBefore, MCP_CALLS, { server: 'traced', outcome: 'tool_error' }),
      timeout: metricsAfter.delta(metricsBefore, MCP_CALLS, { server: 'stalling', outcome: 'timeout' }),
      all: metricsAfter.delta(metricsBefore, MCP_CALLS),
      timed: metricsAfter.delta(metricsBefore, 'yuxi_mcp_tool_call_duration_seconds_count'),
    }).toEqual({ ok: 1, toolError: 1, timeout: 1, all: 3, timed: 3 });

    // Content capture is off: the model's argument is in no span.
    expect(allAttributeText(tracing.spans())).not.toContain(SECRET_TERM);
  });

  it('runs an execute command in a sandbox span under its tool span', async () => {
    fake.script(
      {
        toolCalls: [{ id: 'call_exec', name: 'execute', args: { command: `echo ${SECRET_COMMAND_TEXT}` } }],
      },
      { text: 'ran it' },
    );
    await run('run it');
    const tool = toolSpan('execute');
    expect(tool.attributes).toMatchObject({
      'yuxi.tool.source': 'builtin',
      'yuxi.tool.outcome': 'ok',
      'yuxi.tool.approval.decision': 'allow',
      'yuxi.tool.approval.decided_by': 'rule:1',
    });
    const sandbox = onlyChild(tool, 'sandbox execute');
    expect(sandbox.attributes).toMatchObject({
      'yuxi.sandbox.exit_code': 0,
      'yuxi.sandbox.timed_out': false,
      'yuxi.sandbox.killed': false,
      'yuxi.sandbox.stdout_bytes': SECRET_COMMAND_TEXT.length + 1,
      'yuxi.sandbox.stderr_bytes': 0,
    });
    expect(sandbox.attributes['yuxi.sandbox.limit.timeout_ms']).toBeGreaterThan(0);
    expect(sandbox.attributes['yuxi.sandbox.limit.memory_bytes']).toBeGreaterThan(0);
    expect(allAttributeText(tracing.spans())).not.toContain(SECRET_COMMAND_TEXT);
  });

  it('follows a knowledge query from the tool call through the knowledge MCP server into the search', async () => {
    fake.script(
      {
        toolCalls: [{ id: 'call_kb', name: 'query_kb', args: { kb_id: kb, query: SECRET_QUERY, top_k: 3 } }],
      },
      { text: 'found it' },
    );
    const runId = await run('what is the leave policy?');
    const result = (await storedEvents(ctx, runId)).find((e) => e.type === 'tool_result');
    expect(JSON.stringify(result?.payload)).toContain('fifteen days');

    const tool = toolSpan('query_kb');
    expect(tool.attributes).toMatchObject({ 'yuxi.mcp.server': 'knowledge', 'yuxi.tool.outcome': 'ok' });
    const client = onlyChild(tool, 'mcp tools/call query_kb');
    expect(client.kind).toBe(SpanKind.CLIENT);
    const server = onlyChild(client, 'mcp tools/call query_kb');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.attributes).toMatchObject({ 'yuxi.mcp.server': 'knowledge', 'yuxi.mcp.outcome': 'ok' });
    const query = onlyChild(server, 'knowledge query');
    expect(query.attributes).toMatchObject({
      'yuxi.knowledge.kb_ids': [kb],
      'gen_ai.data_source.id': kb,
      'yuxi.knowledge.top_k': 3,
      'yuxi.knowledge.mode': 'lexical',
    });
    expect(query.attributes['yuxi.knowledge.hits']).toBeGreaterThan(0);
    expect(allAttributeText(tracing.spans())).not.toContain(SECRET_QUERY);
  });

  it('carries prompts, arguments, results, commands and queries while content capture is on', async () => {
    setContentCapture(true);
    try {
      fake.script(
        {
          toolCalls: [
            { id: 'call_lookup', name: 'lookup', args: { term: SECRET_TERM } },
            { id: 'call_exec', name: 'execute', args: { command: `echo ${SECRET_COMMAND_TEXT}` } },
            { id: 'call_kb', name: 'query_kb', args: { kb_id: kb, query: SECRET_QUERY, top_k: 3 } },
          ],
        },
        { text: 'all done' },
      );
      await run('please find the quokka');
    } finally {
      setContentCapture(false);
    }
    const lookup = toolSpan('lookup');
    expect(JSON.parse(lookup.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({
      term: SECRET_TERM,
    });
    expect(lookup.attributes['gen_ai.tool.call.result']).toContain(SECRET_TERM);
    expect(tracing.one('sandbox execute').attributes['yuxi.sandbox.command']).toBe(
      `echo ${SECRET_COMMAND_TEXT}`,
    );
    expect(tracing.one('knowledge query').attributes['gen_ai.retrieval.query.text']).toBe(SECRET_QUERY);
    const [first] = tracing.named('chat fake-model');
    expect(first.attributes['gen_ai.input.messages']).toContain('please find the quokka');
  });
});
