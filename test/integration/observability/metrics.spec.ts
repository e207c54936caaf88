import { randomBytes } from 'node:crypto';
import { Metrics } from '../../../src/observability/metrics';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { freePort } from '../../support/free-port';
import { Scrape } from '../../support/metrics/prometheus-text';
import { eventually } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { TestContext, type TestUser } from '../../support/test-app';

jest.setTimeout(60_000);

const TOKEN = `metrics-${randomBytes(16).toString('hex')}`;
const AGENT_CAP = 3;
const CHATBOT = 'default-chatbot';

const mark = (reason: string) => ({ name: 'mark_for_improvement', args: { reason } });

describe('Prometheus metrics of an APP_ROLE=all process', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    ({ fake, ctx, close } = await startRuntime({
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(metricsPort),
      METRICS_MAX_AGENT_LABELS: String(AGENT_CAP),
    }));
    user = await ctx.newUser();
  });

  afterAll(() => close());

  async function scrape(): Promise<Scrape> {
    const res = await ctx.http.get('/metrics').set({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    return Scrape.of(res.text);
  }

  /** One run on a thread of its own, to its end. */
  async function runToEnd(agentSlug = CHATBOT, input = 'go'): Promise<{ runId: string; status: string }> {
    const threadId = await newThread(ctx, user, agentSlug);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input });
    return { runId, status: await waitForStatus(ctx, runId, isTerminal) };
  }

  describe('GET /metrics on the main port', () => {
    it('answers 401 with the error envelope without the token, or with another one (a JWT included)', async () => {
      const missing = await ctx.http.get('/metrics');
      expect(missing.status).toBe(401);
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(missing.body).toEqual({
        status_code: 401,
        code: 'auth.missing_credentials',
        message: 'Send `Authorization: Bearer <METRICS_TOKEN>`.',
        details: null,
        request_id: expect.any(String),
      });
      expect(missing.text).not.toContain('yuxi_');

      for (const bearer of [`${TOKEN}x`, TOKEN.slice(0, -1), 'short', user.token]) {
        const wrong = await ctx.http.get('/metrics').set({ authorization: `Bearer ${bearer}` });
        expect(wrong.status).toBe(401);
        expect(wrong.body).toMatchObject({ status_code: 401, code: 'auth.invalid_token', details: null });
      }
      const notBearer = await ctx.http.get('/metrics').set({ authorization: `Basic ${TOKEN}` });
      expect(notBearer.body).toMatchObject({ code: 'auth.missing_credentials' });
    });

    it('answers 200 in the text format with every series of this service and the process metrics', async () => {
      const res = await ctx.http.get('/metrics').set({ authorization: `bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      for (const series of [
        'yuxi_runs_total',
        'yuxi_run_duration_seconds',
        'yuxi_run_queue_wait_seconds',
        'yuxi_runs_active',
        'yuxi_worker_holding',
        'yuxi_tool_calls_total',
        'yuxi_tool_call_duration_seconds',
        'yuxi_model_calls_total',
        'yuxi_model_call_duration_seconds',
        'yuxi_model_tokens_total',
        'yuxi_sse_streams_open',
        'yuxi_queue_jobs',
        'yuxi_mcp_discovery_duration_seconds',
        'yuxi_sandbox_executions_total',
        'yuxi_sandbox_execution_duration_seconds',
        'process_cpu_user_seconds_total',
        'nodejs_heap_size_used_bytes',
      ])
        expect(res.text).toContain(`# TYPE ${series} `);
      // Every sample line parses, and the queues this process knows are counted by state.
      const parsed = Scrape.of(res.text);
      expect(parsed.labelValues('yuxi_queue_jobs', 'queue')).toEqual(
        new Set(['agent-runs', 'thread-compaction', 'knowledge-indexing', 'maintenance']),
      );
      expect(parsed.labelValues('yuxi_queue_jobs', 'state')).toEqual(
        new Set(['waiting', 'active', 'delayed', 'failed']),
      );
    });

    it('is not under the /api prefix, and is documented under Operations', async () => {
      const prefixed = await ctx.http.get('/api/metrics').set({ authorization: `Bearer ${TOKEN}` });
      expect(prefixed.status).toBe(404);
      expect(prefixed.body).toMatchObject({ code: 'common.not_found' });
      const post = await ctx.http.post('/metrics').set({ authorization: `Bearer ${TOKEN}` });
      expect(post.status).toBe(404);

      const doc = await ctx.http.get('/api/docs-json');
      const operation = doc.body.paths['/metrics']?.get;
      expect(operation).toMatchObject({ tags: ['Operations'] });
      expect(Object.keys(operation.responses as object)).toEqual(expect.arrayContaining(['200', '401']));
      expect(doc.body.paths['/api/metrics']).toBeUndefined();
    });
  });

  describe('the METRICS_PORT listener', () => {
    it('serves /metrics without a token, and nothing else', async () => {
      const base = `http://127.0.0.1:${metricsPort}`;
      const res = await fetch(`${base}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
      expect(Scrape.of(await res.text()).matching('yuxi_runs_active')).toHaveLength(1);
      // A token is not needed there, and a wrong one changes nothing.
      expect((await fetch(`${base}/metrics?x=1`, { headers: { authorization: 'Bearer nope' } })).status).toBe(
        200,
      );

      for (const path of ['/', '/api/health', '/api/metrics', '/metrics/x', '/api/docs-json']) {
        const other = await fetch(`${base}${path}`);
        expect({ path, status: other.status, body: await other.json() }).toEqual({
          path,
          status: 404,
          body: { code: 'common.not_found', message: 'Not found', details: null },
        });
      }
      const post = await fetch(`${base}/metrics`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(await post.json()).toMatchObject({ code: 'common.method_not_allowed' });
    });
  });

  describe('counting', () => {
    afterEach(() => {
      fake.clearScript();
      fake.route(null);
    });

    it('moves runs, tools, model calls, tokens and histograms by exactly what the runs did', async () => {
      const before = await scrape();

      // Two runs: the model calls a known tool once, then answers.
      for (const n of [1, 2]) {
        fake.script(
          { toolCalls: [mark(`Reason ${n}.`)], usage: { prompt_tokens: 100, completion_tokens: 20 } },
          { text: `Done ${n}.`, usage: { prompt_tokens: 130, completion_tokens: 5 } },
        );
        expect((await runToEnd()).status).toBe('completed');
      }
      // One run whose model call is refused by the provider: it fails.
      fake.failNext(1, { kind: 'status', status: 400 });
      const failed = await runToEnd();
      expect(failed.status).toBe('failed');

      // One run cancelled during its model call, with a stream open on it meanwhile.
      const streamsBefore = (await scrape()).value('yuxi_sse_streams_open');
      const held = fake.holdNext();
      fake.script({ text: 'Never shown.' });
      const threadId = await newThread(ctx, user);
      const { run_id: cancelledId } = await startRun(ctx, user, threadId, { input: 'wait' });
      await held.arrived;
      const stop = new AbortController();
      const stream = readSse(
        await listeningUrl(ctx.app.getHttpServer()),
        `/api/runs/${cancelledId}/events`,
        auth(user),
        { signal: stop.signal, timeoutMs: 20_000 },
      );
      const during = await eventually(scrape, (s) => s.value('yuxi_sse_streams_open') === streamsBefore + 1);
      expect(during.value('yuxi_runs_active')).toBe(1);
      expect((await ctx.http.post(`/api/runs/${cancelledId}/cancel`).set(auth(user))).status).toBe(200);
      expect(await waitForStatus(ctx, cancelledId, isTerminal)).toBe('cancelled');
      held.release();
      // The run's stream ends with the run.
      expect((await stream).ended).toBe(true);

      // The worker lets go of the run just after its ending is written: the gauge follows within moments.
      const after = await eventually(
        scrape,
        (s) => s.value('yuxi_sse_streams_open') === streamsBefore && s.value('yuxi_runs_active') === 0,
      );
      const delta = (name: string, labels: Record<string, string> = {}) => after.delta(before, name, labels);

      expect({
        completed: delta('yuxi_runs_total', { status: 'completed', agent: CHATBOT }),
        failed: delta('yuxi_runs_total', { status: 'failed', agent: CHATBOT }),
        cancelled: delta('yuxi_runs_total', { status: 'cancelled', agent: CHATBOT }),
        all: delta('yuxi_runs_total'),
      }).toEqual({ completed: 2, failed: 1, cancelled: 1, all: 4 });
      expect({
        completed: delta('yuxi_run_duration_seconds_count', { status: 'completed' }),
        failed: delta('yuxi_run_duration_seconds_count', { status: 'failed' }),
        cancelled: delta('yuxi_run_duration_seconds_count', { status: 'cancelled' }),
        queueWait: delta('yuxi_run_queue_wait_seconds_count'),
      }).toEqual({ completed: 2, failed: 1, cancelled: 1, queueWait: 4 });

      const tool = { tool: 'mark_for_improvement', source: 'builtin' };
      expect({
        ok: delta('yuxi_tool_calls_total', { ...tool, outcome: 'ok' }),
        all: delta('yuxi_tool_calls_total'),
        timed: delta('yuxi_tool_call_duration_seconds_count', tool),
      }).toEqual({ ok: 2, all: 2, timed: 2 });

      const model = { model: 'fake-model', purpose: 'agent' };
      expect({
        ok: delta('yuxi_model_calls_total', { ...model, outcome: 'ok' }),
        error: delta('yuxi_model_calls_total', { ...model, outcome: 'error' }),
        cancelled: delta('yuxi_model_calls_total', { ...model, outcome: 'cancelled' }),
        timed: delta('yuxi_model_call_duration_seconds_count', model),
        input: delta('yuxi_model_tokens_total', { ...model, type: 'input' }),
        output: delta('yuxi_model_tokens_total', { ...model, type: 'output' }),
      }).toEqual({ ok: 4, error: 1, cancelled: 1, timed: 6, input: 460, output: 50 });

      // The tokens counted are the ones the usage records hold for the same calls.
      const [usage] = await ctx.dataSource.query<{ input: string; output: string }[]>(
        `SELECT sum(input_tokens) AS input, sum(output_tokens) AS output FROM model_usage WHERE user_id = $1`,
        [user.id],
      );
      expect({ input: Number(usage.input), output: Number(usage.output) }).toEqual({
        input: 460,
        output: 50,
      });
    });

    it('does not count a run parked for a question as ended, and counts it once when cancelled waiting', async () => {
      const before = await scrape();
      const threadId = await newThread(ctx, user);
      fake.script({
        toolCalls: [{ name: 'ask_user_question', args: { questions: [{ question: 'Which one?' }] } }],
      });
      const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask me' });
      expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
      const parked = await eventually(scrape, (s) => s.value('yuxi_runs_active') === 0);
      expect(parked.delta(before, 'yuxi_runs_total')).toBe(0);
      expect(parked.delta(before, 'yuxi_run_queue_wait_seconds_count')).toBe(1);

      expect((await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user))).status).toBe(200);
      expect(await waitForStatus(ctx, runId, isTerminal)).toBe('cancelled');
      const after = await scrape();
      expect(after.delta(before, 'yuxi_runs_total', { status: 'cancelled', agent: CHATBOT })).toBe(1);
      expect(after.delta(before, 'yuxi_runs_total')).toBe(1);
      // Ended by the cancel request, not by an execution: its start is not known there.
      expect(after.delta(before, 'yuxi_run_duration_seconds_count')).toBe(0);
    });

    it('counts a tool name no run was offered under (unknown), never under the name the model sent', async () => {
      const before = await scrape();
      fake.script({ toolCalls: [{ name: 'invented_tool_zz', args: {} }] }, { text: 'Sorry.' });
      expect((await runToEnd()).status).toBe('completed');
      const after = await scrape();
      expect(
        after.delta(before, 'yuxi_tool_calls_total', {
          tool: '(unknown)',
          source: '(unknown)',
          outcome: 'refused',
        }),
      ).toBe(1);
      expect(after.delta(before, 'yuxi_tool_calls_total')).toBe(1);
      expect(after.labelValues('yuxi_tool_calls_total', 'tool')).not.toContain('invented_tool_zz');
      expect(after.labelValues('yuxi_tool_call_duration_seconds_bucket', 'tool')).not.toContain(
        'invented_tool_zz',
      );
    });

    it('keeps METRICS_MAX_AGENT_LABELS agents as labels and counts the runs of later ones under (other)', async () => {
      const before = await scrape();
      const kept = [...before.labelValues('yuxi_runs_total', 'agent')].filter((a) => a !== '(other)');
      const free = AGENT_CAP - kept.length;
      expect(free).toBeGreaterThanOrEqual(1);
      const agents: string[] = [];
      for (let i = 0; i < free + 2; i++) agents.push((await ctx.newAgent(user)).slug);
      for (const slug of agents) {
        fake.script({ text: `Hello from ${slug}.` });
        expect((await runToEnd(slug)).status).toBe('completed');
      }
      const after = await scrape();
      const labels = after.labelValues('yuxi_runs_total', 'agent');
      // The first agents to end a run took the free labels; the last two share (other).
      for (const slug of agents.slice(0, free))
        expect(after.delta(before, 'yuxi_runs_total', { status: 'completed', agent: slug })).toBe(1);
      for (const slug of agents.slice(free)) expect(labels).not.toContain(slug);
      expect(after.delta(before, 'yuxi_runs_total', { status: 'completed', agent: '(other)' })).toBe(2);
      expect([...labels].filter((a) => a !== '(other)')).toHaveLength(AGENT_CAP);
    });

    it('caps model names too: a model asked for past the cap is counted as (other)', async () => {
      const metrics = ctx.app.get(Metrics);
      for (let i = 0; i < AGENT_CAP + 3; i++)
        metrics.modelCall(`made-up-${i}`, 'summary', 'error', 0.1, null);
      const models = (await scrape()).labelValues('yuxi_model_calls_total', 'model');
      expect([...models].filter((m) => m !== '(other)')).toHaveLength(AGENT_CAP);
      expect(models).toContain('(other)');
    });
  });
});

describe('/metrics with METRICS_PORT but no METRICS_TOKEN', () => {
  let ctx: TestContext;
  let metricsPort: number;

  beforeAll(async () => {
    metricsPort = await freePort();
    ctx = await TestContext.start({ METRICS_PORT: String(metricsPort) });
  });

  afterAll(() => ctx.close());

  it('is an unknown route on the main port, and served on the listener', async () => {
    const unknown = await ctx.http.get('/api/no-such-route');
    for (const headers of [{}, { authorization: 'Bearer anything-at-all-here' }]) {
      const res = await ctx.http.get('/metrics').set(headers);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({
        status_code: 404,
        code: 'common.not_found',
        message: 'Cannot GET /metrics',
        details: null,
        request_id: expect.any(String),
      });
      // As any route this service does not have.
      expect(unknown.status).toBe(404);
      expect(Object.keys(unknown.body as object).sort()).toEqual(Object.keys(res.body as object).sort());
    }
    expect((await ctx.http.get('/api/docs-json')).body.paths['/metrics']).toBeUndefined();

    const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(res.status).toBe(200);
    const scraped = Scrape.of(await res.text());
    // An API process: it counts runs it ends (a cancel) but executes none.
    expect(scraped.value('yuxi_runs_active')).toBe(0);
    expect(scraped.labelValues('yuxi_queue_jobs', 'queue')).toContain('agent-runs');
  });
});
