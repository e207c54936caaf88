import { existsSync } from 'node:fs';
import { offeredTools } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { type RuntimeContext, startRuntime } from '../../support/runs/runtime-context';
import { execute } from '../../support/sandbox/execute-call';
import type { TestUser } from '../../support/test-app';

describe('execute where no sandbox can be made', () => {
  let runtime: RuntimeContext;
  let user: TestUser;

  beforeAll(async () => {
    runtime = await startRuntime({ SANDBOX_BWRAP: '/nonexistent/bwrap' });
    user = await runtime.ctx.newUser();
    const created = await runtime.ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Runner', slug: 'runner', config: { tools: ['execute'] } });
    expect(created.status).toBe(201);
  });
  afterAll(() => runtime.close());

  it('says so in the catalog, with the reason', async () => {
    const entry = await runtime.ctx.http.get('/api/system/tools/execute').set(auth(user));
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ available: false });
    expect(entry.body.unavailable_reason).toEqual(expect.stringContaining('/nonexistent/bwrap'));
  });

  it('is not offered to a run, which gets an unavailable event instead', async () => {
    runtime.fake.script({ text: 'No commands today.' });
    const threadId = await newThread(runtime.ctx, user, 'runner');
    const run = await startRun(runtime.ctx, user, threadId, { input: 'list the files' });
    expect(await waitForStatus(runtime.ctx, run.run_id, isTerminal)).toBe('completed');
    expect(offeredTools(runtime.fake.requests.at(-1)!)).not.toContain('execute');
    const events = await storedEvents(runtime.ctx, run.run_id);
    expect(events.filter((e) => e.type === 'unavailable').map((e) => e.payload)).toEqual([
      {
        component: 'execute',
        available: false,
        reason: expect.stringContaining('/nonexistent/bwrap'),
      },
    ]);
  });

  it('never runs a command unsandboxed when called anyway', async () => {
    const marker = `/tmp/unsandboxed-${process.pid}`;
    const { isError, body } = await execute(runtime.ctx, user, { command: `touch ${marker}` });
    expect(existsSync(marker)).toBe(false);
    expect(isError).toBe(true);
    expect(body.error.code).toBe('sandbox.unavailable');
    expect(body.error.details.reason).toEqual(expect.stringContaining('/nonexistent/bwrap'));
  });
});
