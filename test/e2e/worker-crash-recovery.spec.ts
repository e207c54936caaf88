import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { eventually } from '../support/runs/run-event-rows';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(60_000);

const LEASE_SECONDS = 3;
const RECONCILE_SECONDS = 1;
/** The design bound is lease + one reconcile period; slack for a loaded 2-core CI machine. */
const BOUND_MS = (LEASE_SECONDS + RECONCILE_SECONDS + 3) * 1000;

/**
 * RELIABILITY 12: a worker killed with SIGKILL mid-run. The API runs in this process (APP_ROLE=api);
 * the workers are compiled entrypoints in their own processes, as in production.
 */
describe('a worker killed with SIGKILL in the middle of a run', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let env: Record<string, string> = {};
  const workers: ServiceProcess[] = [];
  const holds: (() => void)[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const overrides = {
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      RUN_LEASE_SECONDS: String(LEASE_SECONDS),
      RUN_RECONCILE_SECONDS: String(RECONCILE_SECONDS),
    };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
  });

  afterEach(() => {
    holds.splice(0).forEach((release) => release());
    workers.splice(0).forEach((worker) => worker.kill());
  });

  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  const startWorker = (extra: Record<string, string> = {}) => {
    const worker = ServiceProcess.start('worker', {
      ...env,
      APP_ROLE: 'worker',
      LOG_LEVEL: 'info',
      ...extra,
    });
    workers.push(worker);
    return worker;
  };

  const started = async (worker: ServiceProcess) => {
    const deadline = Date.now() + 30_000;
    while (!worker.stdout.includes('agent-runs worker started')) {
      if (Date.now() > deadline || worker.child.exitCode !== null)
        throw new Error(`worker did not start:\n${worker.stderr}\n${worker.stdout.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /**
   * Starts a run whose first model call asks for write_file and whose second model call is held, then
   * kills the worker executing it while a standby worker (started with `standbyEnv`) is up.
   */
  async function runKilledAfterItsToolCall(
    standbyEnv: Record<string, string> = {},
  ): Promise<{ runId: string; threadId: string; killedAt: number }> {
    const threadId = await newThread(ctx, user);
    const first = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'a.md', content: 'once' } }] },
      { text: 'Done after the crash.' },
    );
    const second = fake.holdRequest(first + 2);
    holds.push(second.release);
    const victim = startWorker();
    await started(victim);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'write a.md' });
    await second.arrived;
    await started(startWorker(standbyEnv));
    victim.kill();
    await victim.exit(5_000);
    return { runId, threadId, killedAt: Date.now() };
  }

  it('is re-queued once its lease expires and completes from its checkpoint, without running its tool twice', async () => {
    const { runId, threadId, killedAt } = await runKilledAfterItsToolCall();

    const status = await waitForStatus(ctx, runId, isTerminal, 30_000);
    const elapsedMs = Date.now() - killedAt;
    expect(status).toBe('completed');
    expect(elapsedMs).toBeLessThan(BOUND_MS);

    const [run] = await ctx.dataSource.query<{ attempts: number; lease_token: string | null }[]>(
      `SELECT attempts, lease_token FROM runs WHERE id = $1`,
      [runId],
    );
    expect(run).toEqual({ attempts: 2, lease_token: null });
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect((messages.body.items as { role: string }[]).map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    // The worker writes audit rows in batches (within ~50 ms).
    const writes = await eventually(
      () =>
        ctx.dataSource.query<{ count: number }[]>(
          `SELECT count(*)::int AS count FROM tool_calls WHERE run_id = $1 AND tool_name = 'write_file'`,
          [runId],
        ),
      (rows) => rows[0].count > 0,
    );
    expect(writes[0].count).toBe(1);
    const events = await ctx.dataSource.query<{ seq: number; type: string; payload: { status?: string } }[]>(
      `SELECT seq, type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
      [runId],
    );
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    const statuses = events.filter((e) => e.type === 'status').map((e) => e.payload.status);
    expect(statuses).toEqual(['queued', 'running', 'queued', 'running', 'completed']);
    expect(events.at(-1)).toMatchObject({ type: 'done', payload: { status: 'completed' } });

    // Usage stays exact: the call the killed worker never recorded counts nothing, the first call and
    // the one made again on resume count once each (one row per stored reply, one event per row).
    const replies = (messages.body.items as { id: string; role: string }[])
      .filter((m) => m.role === 'assistant')
      .map((m) => m.id)
      .sort();
    const usage = await ctx.dataSource.query<{ id: string; input_tokens: number; output_tokens: number }[]>(
      `SELECT id, input_tokens, output_tokens FROM model_usage WHERE run_id = $1 ORDER BY id`,
      [runId],
    );
    expect(usage).toEqual(replies.map((id) => ({ id, input_tokens: 11, output_tokens: 7 })));
    expect(events.filter((e) => e.type === 'usage')).toHaveLength(2);
    const read = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(read.body.token_usage).toEqual({
      input_tokens: 22,
      output_tokens: 14,
      total_tokens: 36,
      cached_tokens: 0,
    });
    const [daily] = await ctx.dataSource.query<{ calls: string }[]>(
      `SELECT sum(calls) AS calls FROM model_usage_daily WHERE user_id = $1`,
      [user.id],
    );
    const [rows] = await ctx.dataSource.query<{ calls: string }[]>(
      `SELECT count(*) AS calls FROM model_usage WHERE user_id = $1`,
      [user.id],
    );
    expect(daily.calls).toBe(rows.calls);
  });

  it('fails with runs.worker_lost when it has no claims left', async () => {
    const { runId, killedAt } = await runKilledAfterItsToolCall({ RUN_MAX_ATTEMPTS: '1' });

    const status = await waitForStatus(ctx, runId, isTerminal, 30_000);
    expect(status).toBe('failed');
    expect(Date.now() - killedAt).toBeLessThan(BOUND_MS);
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(run.body.error).toEqual({ code: 'runs.worker_lost', message: expect.any(String) });
    const [last] = await ctx.dataSource.query<{ type: string; payload: unknown }[]>(
      `SELECT type, payload FROM run_events WHERE run_id = $1 ORDER BY seq DESC LIMIT 1`,
      [runId],
    );
    expect(last).toEqual({ type: 'done', payload: { status: 'failed' } });
  });
});
