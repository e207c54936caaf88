import { stat } from 'node:fs/promises';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { requestedToolCalls, toolAnswer, unansweredToolCalls } from '../../support/runs/model-requests';
import { runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { workdirFile } from '../../support/runs/workdir-files';
import type { TestContext } from '../../support/test-app';

describe('runs that end early: step limit, authorization revoked mid-run; the thread goes on', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
  });

  afterAll(() => close());

  it('fails a run that keeps calling tools with runs.step_limit_exceeded (max_execution_steps)', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Looper', slug: 'looper', config: { max_execution_steps: 3 } });
    expect(created.status).toBe(201);
    expect(created.body.config.max_execution_steps).toBe(3);
    const threadId = await newThread(ctx, admin, 'looper');

    const before = fake.requests.length;
    fake.script(
      { toolCalls: [{ id: 'loop_1', name: 'ls', args: { path: '.' } }] },
      { toolCalls: [{ id: 'loop_2', name: 'ls', args: { path: '.' } }] },
    );
    const run = await startRun(ctx, admin, threadId, { input: 'list forever' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');

    const got = await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(admin));
    expect(got.body).toMatchObject({ status: 'failed', error: { code: 'runs.step_limit_exceeded' } });
    // Three steps: model, tools, model; the second round of tools never ran.
    expect(fake.requests.length - before).toBe(2);
    const events = await storedEvents(ctx, run.run_id);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.payload.tool_call_id)).toEqual([
      'loop_1',
    ]);
    expect(events.slice(-3).map((e) => [e.type, e.payload])).toEqual([
      ['error', { code: 'runs.step_limit_exceeded', message: expect.any(String) }],
      ['status', { status: 'failed' }],
      ['done', { status: 'failed' }],
    ]);

    // The next run on the thread shows the model every tool call answered (loop_2 as interrupted).
    fake.script({ text: 'Stopped listing.' });
    const next = await startRun(ctx, admin, threadId, { input: 'stop now' });
    expect(await waitForStatus(ctx, next.run_id, isTerminal)).toBe('completed');
    const shown = fake.requests.at(-1)!.body.messages;
    expect(requestedToolCalls(shown)).toEqual(['loop_1', 'loop_2']);
    expect(unansweredToolCalls(shown)).toEqual([]);
    expect(String(toolAnswer(shown, 'loop_2')?.content)).toContain('runs.tool_call_interrupted');
    expect(shown.at(-1)).toMatchObject({ role: 'user', content: 'stop now' });
  });

  it('ends the run with auth.account_disabled when the user is disabled during a model call; the tool never runs', async () => {
    const user = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({
      text: 'Writing.',
      toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'secret.md', content: 'x' } }],
    });
    const run = await startRun(ctx, user, threadId, { input: 'write secret.md' });
    await hold.arrived;
    await ctx.dataSource.query(`UPDATE users SET disabled = true WHERE id = $1`, [user.id]);
    hold.release();

    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    expect((await runRow(ctx, run.run_id)).error).toMatchObject({ code: 'auth.account_disabled' });
    const events = await storedEvents(ctx, run.run_id);
    expect(events.map((e) => e.type)).toContain('tool_call');
    expect(events.map((e) => e.type)).not.toContain('tool_result');
    expect(events.slice(-3).map((e) => e.type)).toEqual(['error', 'status', 'done']);
    expect(events.at(-3)?.payload.code).toBe('auth.account_disabled');

    const onDisk = workdirFile(ctx, user.id, threadId, 'secret.md');
    await expect(stat(onDisk)).rejects.toMatchObject({ code: 'ENOENT' });
    const toolMessages = await ctx.dataSource.query<unknown[]>(
      `SELECT 1 FROM messages WHERE run_id = $1 AND role = 'tool'`,
      [run.run_id],
    );
    expect(toolMessages).toEqual([]);
    // The disabled user's token is refused too.
    expect((await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(user))).status).toBe(401);

    // Re-enabled, the user continues the thread; the model sees the interrupted call answered.
    await ctx.dataSource.query(`UPDATE users SET disabled = false WHERE id = $1`, [user.id]);
    fake.script({ text: 'Back again.' });
    const next = await startRun(ctx, user, threadId, { input: 'try again' });
    expect(await waitForStatus(ctx, next.run_id, isTerminal)).toBe('completed');
    const shown = fake.requests.at(-1)!.body.messages;
    expect(requestedToolCalls(shown)).toEqual(['call_w']);
    expect(unansweredToolCalls(shown)).toEqual([]);
    expect(String(toolAnswer(shown, 'call_w')?.content)).toContain('runs.tool_call_interrupted');
    await expect(stat(onDisk)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
