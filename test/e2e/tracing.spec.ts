import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { freePort } from '../support/free-port';
import { TestMcpServer } from '../support/mcp/mcp-test-server';
import { auth, isTerminal, newThread, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { userInput } from '../support/subagents/subagent-scripts';
import { TestContext, type TestUser } from '../support/test-app';
import { OtlpReceiver, SpanKinds, type ReceivedSpan } from '../support/tracing/otlp-receiver';

jest.setTimeout(90_000);

interface LogLine {
  msg?: string;
  run_id?: string;
  trace_id?: string;
  span_id?: string;
}

/**
 * OpenTelemetry end to end: the compiled service (`APP_ROLE=all`) exports to a local OTLP/JSON
 * receiver; a run's HTTP request, its enqueue and its execution are one trace, the model provider is
 * called with that trace's `traceparent`, no span holds the run's input, and the run's log lines name
 * the trace.
 */
describe('tracing a run from its HTTP request to the model provider', () => {
  let receiver: OtlpReceiver;
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let service: ServiceProcess;
  let base: string;
  let mcp: TestMcpServer;

  beforeAll(async () => {
    receiver = await OtlpReceiver.start();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [{ name: 'lookup', description: 'Looks up a term.', input: { term: z.string() } }],
    });
    fake = await FakeOpenAiServer.start();
    const overrides = {
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
    };
    let env: Record<string, string> = {};
    // The API in this process only sets up users and threads; the traced service is the child.
    ctx = await TestContext.start((baseEnv) => {
      env = { ...baseEnv, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
    const port = await freePort();
    service = ServiceProcess.start('main', {
      ...env,
      APP_ROLE: 'all',
      PORT: String(port),
      WORKER_HEALTH_PORT: '0',
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    await service.waitHealthy(port, 30_000);
    base = `http://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    service?.kill();
    await ctx?.close();
    await fake?.close();
    await receiver?.close();
    await mcp?.close();
  });

  async function createRun(
    threadId: string,
    input: string,
    requestId: string = randomUUID(),
  ): Promise<string> {
    const res = await fetch(`${base}/api/threads/${threadId}/runs`, {
      method: 'POST',
      headers: { ...auth(user), 'content-type': 'application/json', 'x-request-id': requestId },
      body: JSON.stringify({ input }),
    });
    expect(res.status).toBe(202);
    return ((await res.json()) as { run_id: string }).run_id;
  }

  const runSpanOf = (runId: string) =>
    receiver.waitFor(
      (spans) =>
        spans.find(
          (s) => s.attributes['yuxi.run.id'] === runId && s.attributes['yuxi.run.outcome'] !== undefined,
        ),
      `of run ${runId}`,
    );

  const logLinesOf = (runId: string): LogLine[] =>
    service.stdout
      .split('\n')
      .filter((line) => line.includes(runId))
      .map((line) => JSON.parse(line) as LogLine)
      .filter((line) => line.run_id === runId);

  it('chains the HTTP server span, the enqueue span and the run span in one trace; the model call carries it', async () => {
    const threadId = await newThread(ctx, user);
    const input = `secret-input-${randomUUID()}`;
    fake.script(
      { toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'a.md', content: 'x' } }] },
      { text: 'Written.' },
    );
    const modelCallsBefore = fake.requests.length;
    const requestId = `traced-${randomUUID()}`;
    const runId = await createRun(threadId, input, requestId);
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');

    const run = await runSpanOf(runId);
    const { traceId } = run;
    const [thread] = await ctx.dataSource.query<{ agent_slug: string }[]>(
      `SELECT agent_slug FROM threads WHERE id = $1`,
      [threadId],
    );
    expect(run).toMatchObject({
      name: `run ${thread.agent_slug}`,
      kind: SpanKinds.consumer,
      service: 'yuxi-tool-platform-all',
      attributes: expect.objectContaining({
        'yuxi.thread.id': threadId,
        'yuxi.run.attempt': 1,
        'yuxi.agent.slug': thread.agent_slug,
        'yuxi.run.outcome': 'completed',
        'messaging.destination.name': 'agent-runs',
      }),
    });
    const enqueue = await receiver.waitFor(
      (spans) => spans.find((s) => s.spanId === run.parentSpanId),
      'parent of the run span',
    );
    expect(enqueue).toMatchObject({
      traceId,
      name: 'agent-runs publish',
      kind: SpanKinds.producer,
      attributes: expect.objectContaining({ 'messaging.message.id': runId, 'yuxi.run.id': runId }),
    });
    const server = await receiver.waitFor(
      () => receiver.ancestry(enqueue).find((s) => s.kind === SpanKinds.server),
      'HTTP server span above the enqueue span',
    );
    expect(server).toMatchObject({
      traceId,
      name: 'POST /api/threads/:id/runs',
      attributes: expect.objectContaining({ 'http.route': '/api/threads/:id/runs' }),
    });
    expect(server.parentSpanId).toBeUndefined();

    // Both model calls went out with the trace's context (the run span's descendants).
    const modelCalls = fake.requests.slice(modelCallsBefore).filter((r) => userInput(r.body) === input);
    expect(modelCalls).toHaveLength(2);
    for (const call of modelCalls)
      expect(call.headers.traceparent).toMatch(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`));
    // Whatever spans the run made are in its subtree.
    const inTrace = receiver.trace(traceId);
    for (const span of inTrace.filter((s) => s !== server))
      expect(receiver.ancestry(span).at(-1)).toBe(server);

    // Content capture is off: the input is nowhere in what was exported.
    expect(receiver.bodies.join('\n')).not.toContain(input);

    // Every log line of the execution names the trace.
    const lines = logLinesOf(runId);
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['run claimed', 'run finished']));
    for (const line of lines) expect(line.trace_id).toBe(traceId);
    const spanIds = new Set(inTrace.map((s) => s.spanId));
    for (const line of lines) expect(spanIds.has(line.span_id!)).toBe(true);
    // So does every line of the request, the access log's included.
    const requestLines = service.stdout
      .split('\n')
      .filter((line) => line.includes(requestId))
      .map((line) => JSON.parse(line) as LogLine & { request_id?: string; req?: { id?: string } })
      .filter((line) => (line.request_id ?? line.req?.id) === requestId && line.run_id === undefined);
    expect(requestLines.map((line) => line.msg)).toContain('request completed');
    for (const line of requestLines)
      expect(line).toMatchObject({ trace_id: traceId, span_id: server.spanId });
  });

  it('chains the request, the run, the tool call and the MCP request to the MCP server, which sees the traceparent', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    await ctx.newMcpServer(admin, { slug: 'traced-e2e', url: mcp.url });
    const agent = await ctx.newAgent(user, { name: 'MCP traced', config: { mcps: ['traced-e2e'] } });
    const threadId = await newThread(ctx, user, agent.slug);
    const input = `mcp-input-${randomUUID()}`;
    const term = `mcp-term-${randomUUID()}`;
    fake.script(
      { toolCalls: [{ id: 'call_lookup', name: 'lookup', args: { term } }] },
      { text: 'Looked up.' },
    );
    const runId = await createRun(threadId, input);
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');

    const run = await runSpanOf(runId);
    const request = await receiver.waitFor(
      (spans) => spans.find((s) => s.traceId === run.traceId && s.name === 'mcp tools/call lookup'),
      'MCP request span of the run',
    );
    expect(request.kind).toBe(SpanKinds.client);
    const chain = receiver.ancestry(request).map((span) => span.name);
    expect(chain).toEqual([
      'mcp tools/call lookup',
      'execute_tool lookup',
      run.name,
      'agent-runs publish',
      'POST /api/threads/:id/runs',
    ]);
    expect(receiver.trace(run.traceId).some((s) => s.name === 'chat fake-model')).toBe(true);

    // The server got the MCP span's context in the HTTP headers and in the request's _meta.
    const [received] = mcp
      .calls('lookup')
      .filter((call) => (call.params?.arguments as Record<string, unknown>).term === term);
    const traceparent = `00-${run.traceId}-${request.spanId}-01`;
    expect(received.headers.traceparent).toBe(traceparent);
    expect((received.params?._meta as Record<string, unknown>).traceparent).toBe(traceparent);
    // Neither the input nor the model's argument is in any exported span.
    const exported = receiver.bodies.join('\n');
    expect(exported).not.toContain(input);
    expect(exported).not.toContain(term);
  });

  it('keeps a queued run in the trace of the request that created it, not of the run that woke it', async () => {
    const threadId = await newThread(ctx, user);
    const first = `first-${randomUUID()}`;
    const second = `second-${randomUUID()}`;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    fake.route((body) => {
      const input = userInput(body);
      if (input === first) return { reply: { text: 'first done' }, after: released };
      if (input === second) return { text: 'second done' };
      return undefined;
    });
    try {
      const firstRunId = await createRun(threadId, first);
      await waitForStatus(ctx, firstRunId, (status) => status === 'running');
      // Behind the first run: enqueued only when the first one leaves the thread, by its worker.
      const secondRunId = await createRun(threadId, second);
      release();
      expect(await waitForStatus(ctx, secondRunId, isTerminal, 30_000)).toBe('completed');

      const firstSpan = await runSpanOf(firstRunId);
      const secondSpan = await runSpanOf(secondRunId);
      expect(secondSpan.traceId).not.toBe(firstSpan.traceId);
      const chain = receiver.ancestry(secondSpan);
      expect(chain.map((span) => span.name)).toEqual([
        secondSpan.name,
        'agent-runs publish',
        'POST /api/threads/:id/runs',
      ]);
      // The enqueue span names the run that enqueued it, as a link.
      expect(chain[1].links).toEqual([
        expect.objectContaining({ spanId: firstSpan.spanId, traceId: firstSpan.traceId }),
      ]);
    } finally {
      fake.route(null);
    }
  });

  it('runs the execution an answer resumed in the trace of the answering request', async () => {
    const threadId = await newThread(ctx, user);
    const input = `ask-${randomUUID()}`;
    fake.route((body) => {
      if (userInput(body) !== input) return undefined;
      return body.messages.some((m) => m.role === 'tool')
        ? { text: 'Thanks.' }
        : {
            toolCalls: [
              { id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Name?' }] } },
            ],
          };
    });
    try {
      const runId = await createRun(threadId, input);
      expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s), 30_000)).toBe(
        'waiting',
      );
      const point = await fetch(`${base}/api/runs/${runId}/waiting-point`, { headers: auth(user) });
      const questionId = ((await point.json()) as { questions: { question_id: string }[] }).questions[0]
        .question_id;
      const answered = await fetch(`${base}/api/runs/${runId}/answers`, {
        method: 'POST',
        headers: { ...auth(user), 'content-type': 'application/json' },
        body: JSON.stringify({ answers: { [questionId]: 'Ada' } }),
      });
      expect(answered.status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');

      const executions = async () => {
        await receiver.waitFor(
          (spans) =>
            spans.find(
              (s) => s.attributes['yuxi.run.id'] === runId && s.attributes['yuxi.run.attempt'] === 2,
            ),
          'of the resumed execution',
        );
        return receiver.spans.filter(
          (s) => s.kind === SpanKinds.consumer && s.attributes['yuxi.run.id'] === runId,
        );
      };
      const [asked, resumed] = (await executions()).sort(
        (a, b) => Number(a.attributes['yuxi.run.attempt']) - Number(b.attributes['yuxi.run.attempt']),
      );
      expect(asked.attributes['yuxi.run.outcome']).toBe('waiting');
      expect(resumed.attributes['yuxi.run.outcome']).toBe('completed');
      expect(resumed.traceId).not.toBe(asked.traceId);
      expect(receiver.ancestry(resumed).map((span) => span.name)).toEqual([
        resumed.name,
        'agent-runs publish',
        'POST /api/runs/:id/answers',
      ]);
      expect(receiver.ancestry(asked).at(-1)?.name).toBe('POST /api/threads/:id/runs');
    } finally {
      fake.route(null);
    }
  });

  it('puts a subagent run in its parent run’s trace, below the parent run span', async () => {
    const threadId = await newThread(ctx, user);
    const parentInput = `parent-${randomUUID()}`;
    const childTask = `child-task-${randomUUID()}`;
    fake.route((body) => {
      const first = userInput(body);
      if (first === childTask) return { text: 'child output' };
      if (first !== parentInput) return undefined;
      const results = body.messages.filter((m) => m.role === 'tool');
      if (results.length === 0)
        return {
          toolCalls: [
            {
              id: 'start_child',
              name: 'subagent_start',
              args: { description: childTask, subagent_slug: 'general-purpose' },
            },
          ],
        };
      if (results.length === 1) {
        const { run_id } = JSON.parse(String(results[0].content)) as { run_id: string };
        return { toolCalls: [{ id: 'await_child', name: 'subagent_await', args: { run_id } }] };
      }
      return { text: 'parent done' };
    });
    try {
      const parentRunId = await createRun(threadId, parentInput);
      expect(await waitForStatus(ctx, parentRunId, isTerminal, 30_000)).toBe('completed');
      const [child] = await ctx.dataSource.query<{ id: string }[]>(
        `SELECT id FROM runs WHERE parent_run_id = $1`,
        [parentRunId],
      );
      expect(await waitForStatus(ctx, child.id, isTerminal, 30_000)).toBe('completed');

      const parentSpan = await runSpanOf(parentRunId);
      const childSpan = await runSpanOf(child.id);
      expect(childSpan.traceId).toBe(parentSpan.traceId);
      expect(childSpan.attributes['yuxi.run.parent_run_id']).toBe(parentRunId);
      await receiver.waitFor(
        () => (receiver.ancestry(childSpan).includes(parentSpan) ? parentSpan : undefined),
        'chain from the child run span up to the parent run span',
      );
      const chain: ReceivedSpan[] = receiver.ancestry(childSpan);
      // child run ← its enqueue span ← the parent's subagent_start tool call ← the parent run span
      expect(chain.slice(0, 4).map((span) => span.name)).toEqual([
        childSpan.name,
        'agent-runs publish',
        'execute_tool subagent_start',
        parentSpan.name,
      ]);
      expect(chain[1].kind).toBe(SpanKinds.producer);
    } finally {
      fake.route(null);
    }
  });
});

describe('tracing at shutdown', () => {
  let ctx: TestContext;
  let env: Record<string, string> = {};
  let service: ServiceProcess | undefined;

  beforeAll(async () => {
    ctx = await TestContext.start((baseEnv) => {
      env = baseEnv;
      return {};
    });
  });

  afterEach(() => service?.kill());
  afterAll(() => ctx?.close());

  async function startTraced(endpoint: string): Promise<number> {
    const port = await freePort();
    service = ServiceProcess.start('main', {
      ...env,
      APP_ROLE: 'api',
      PORT: String(port),
      LOG_LEVEL: 'info',
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'traced-api',
      // Nothing is exported on a timer: only the shutdown's flush sends the spans.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    });
    await service.waitHealthy(port, 30_000);
    return port;
  }

  it('exports the spans still buffered when the process stops', async () => {
    const receiver = await OtlpReceiver.start();
    try {
      const port = await startTraced(receiver.endpoint);
      const user = await ctx.newUser();
      const res = await fetch(`http://127.0.0.1:${port}/api/threads`, { headers: auth(user) });
      expect(res.status).toBe(200);
      expect(receiver.spans).toEqual([]);

      const stopped = await service!.terminate(10_000);
      expect(stopped.graceful).toBe(true);
      expect(receiver.spans).toEqual([
        expect.objectContaining({
          service: 'traced-api',
          name: 'GET /api/threads',
          attributes: expect.objectContaining({ 'http.route': '/api/threads' }),
        }),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('stops within a couple of seconds when the collector does not answer', async () => {
    // Accepts connections and never replies.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = await startTraced(`http://127.0.0.1:${(silent.address() as AddressInfo).port}`);
      expect((await fetch(`http://127.0.0.1:${port}/api/threads`)).status).toBe(401);
      const stopped = await service!.terminate(15_000);
      expect(stopped.graceful).toBe(true);
      expect(stopped.ms).toBeLessThan(5_000);
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });
});
