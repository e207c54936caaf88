import { decide, waitingPoint } from '../support/approval/approval-runs';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { TestMcpServer } from '../support/mcp/mcp-test-server';
import { toolAnswer } from '../support/runs/model-requests';
import { storedEvents } from '../support/runs/run-event-rows';
import { isTerminal, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(90_000);

const LEASE_SECONDS = 3;
const RECONCILE_SECONDS = 1;

/**
 * Tool approval across a worker killed with SIGKILL: an approved call is never asked about again and
 * never runs twice. The API runs in this process; workers are compiled entrypoints in their own
 * processes, as in production; the tool is a destructive MCP tool (`auto` asks for it).
 */
describe('an approved call and a worker killed with SIGKILL', () => {
  let fake: FakeOpenAiServer;
  let mcp: TestMcpServer;
  let ctx: TestContext;
  let user: TestUser;
  let slug: string;
  let env: Record<string, string> = {};
  const workers: ServiceProcess[] = [];
  /** Releases the MCP calls held in their handler. */
  const held: (() => void)[] = [];
  let holdCalls = false;

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    mcp = await TestMcpServer.start({
      transport: 'streamable_http',
      tools: [
        {
          name: 'charge_card',
          annotations: { destructiveHint: true },
          handler: async () => {
            if (holdCalls) await new Promise<void>((resolve) => held.push(resolve));
            return { content: [{ type: 'text', text: 'charged' }] };
          },
        },
      ],
    });
    const overrides = {
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      RUN_LEASE_SECONDS: String(LEASE_SECONDS),
      RUN_RECONCILE_SECONDS: String(RECONCILE_SECONDS),
      ALLOW_PRIVATE_NETWORK_TARGETS: '127.0.0.1',
    };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
    const admin = await ctx.newUser({ role: 'admin' });
    await ctx.newMcpServer(admin, { slug: 'payments', url: mcp.url });
    slug = (await ctx.newAgent(user, { config: { mcps: ['payments'], tools: [] } })).slug;
  });

  afterEach(() => {
    held.splice(0).forEach((release) => release());
    workers.splice(0).forEach((worker) => worker.kill());
    holdCalls = false;
    fake.clearScript();
  });

  afterAll(async () => {
    await ctx.close();
    await fake.close();
    await mcp.close();
  });

  const startWorker = async () => {
    const worker = ServiceProcess.start('worker', { ...env, APP_ROLE: 'worker', LOG_LEVEL: 'info' });
    workers.push(worker);
    const deadline = Date.now() + 30_000;
    while (!worker.stdout.includes('agent-runs worker started')) {
      if (Date.now() > deadline || worker.child.exitCode !== null)
        throw new Error(`worker did not start:\n${worker.stderr}\n${worker.stdout.slice(-2000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return worker;
  };

  const killed = async (worker: ServiceProcess) => {
    worker.kill();
    await worker.exit(5_000);
  };

  /** A run parked at the approval of one `charge_card` call, by a worker that is then killed. */
  async function parkedRun(): Promise<{ runId: string; threadId: string; worker: ServiceProcess }> {
    const threadId = await newThread(ctx, user, slug);
    fake.script(
      { toolCalls: [{ id: 'call_pay', name: 'charge_card', args: { amount: 5 } }] },
      { text: 'Paid.' },
    );
    const worker = await startWorker();
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'pay' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s), 30_000)).toBe('waiting');
    expect((await waitingPoint(ctx, user, runId)).body.approvals).toHaveLength(1);
    return { runId, threadId, worker };
  }

  const callsBefore = () => mcp.calls('charge_card').length;

  it('killed between the decision and the execution: resumes without asking again and runs the call once', async () => {
    const before = callsBefore();
    const { runId, worker } = await parkedRun();
    await killed(worker);
    const approved = await decide(ctx, user, runId, { decisions: { call_pay: { decision: 'approve' } } });
    expect(approved.status).toBe(200);
    await startWorker();
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');
    expect(callsBefore() - before).toBe(1);
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_pay');
    expect(answer?.content).toContain('charged');
    const events = await storedEvents(ctx, runId);
    expect(events.filter((e) => e.type === 'waiting')).toHaveLength(1);
  });

  it('killed while the approved call runs: the call is not run again and the model learns its effect is unknown', async () => {
    const before = callsBefore();
    const { runId } = await parkedRun();
    holdCalls = true;
    const approved = await decide(ctx, user, runId, { decisions: { call_pay: { decision: 'approve' } } });
    expect(approved.status).toBe(200);
    const deadline = Date.now() + 30_000;
    while (callsBefore() - before < 1) {
      if (Date.now() > deadline) throw new Error('the approved call never reached the server');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const victim = workers.at(-1)!;
    await killed(victim);
    await startWorker();
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');
    expect(callsBefore() - before).toBe(1);
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_pay');
    expect(JSON.parse(String(answer?.content)).error.code).toBe('tools.execution_interrupted');
    const events = await storedEvents(ctx, runId);
    expect(events.filter((e) => e.type === 'waiting')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'tool_result')).toHaveLength(1);
    const [run] = await ctx.dataSource.query<{ attempts: number }[]>(
      `SELECT attempts FROM runs WHERE id = $1`,
      [runId],
    );
    expect(run.attempts).toBe(3);
  });
});
