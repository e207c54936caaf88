import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { auth, newThread, startRun, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TestContext } from '../support/test-app';

jest.setTimeout(60_000);

/** docs/upgrades.md: before narrowing the question schema, list and cancel the open waiting points. */
describe('npm run waiting-points (the compiled command)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let env: Record<string, string> = {};

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const overrides = { APP_ROLE: 'all', OPENAI_BASE_URL: fake.baseUrl, DEFAULT_MODEL: 'fake-model' };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
  });

  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  const cli = async (command: string) => {
    const run = ServiceProcess.start('cli/waiting-points', env, [command]);
    const { code } = await run.exit(30_000);
    return { code, stdout: run.stdout, stderr: run.stderr };
  };

  it('lists the open waiting points, then cancels their runs', async () => {
    const user = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [{ id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Name?' }] } }],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask' });
    await waitForStatus(ctx, runId, (s) => s === 'waiting');

    const listed = await cli('list');
    expect(listed.code).toBe(0);
    const lines = listed.stdout
      .split('\n')
      .filter((l) => l.startsWith('{"waiting_point_id"'))
      .map((l) => JSON.parse(l) as { run_id: string; questions: number });
    expect(lines).toEqual([
      expect.objectContaining({ run_id: runId, thread_id: threadId, user_id: user.id, questions: 1 }),
    ]);

    const cancelled = await cli('cancel');
    expect(cancelled.code).toBe(0);
    expect(cancelled.stderr).toContain('cancelled 1 waiting run(s)');
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(run.body.status).toBe('cancelled');
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.body.status).toBe('cancelled');
    expect((await cli('list')).stderr).toContain('0 open waiting point(s)');
  });

  it('refuses an unknown command with a usage line', async () => {
    const result = await cli('purge');
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('usage: npm run waiting-points -- list | cancel');
  });
});
