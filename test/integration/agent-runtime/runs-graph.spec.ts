import { stat } from 'node:fs/promises';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { offeredTools, toolAnswer, unansweredToolCalls } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { workdirFile } from '../../support/runs/workdir-files';
import type { TestContext, TestUser } from '../../support/test-app';

describe('graph execution: model failures, tool errors, artifacts', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let base: string;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
    base = await listeningUrl(ctx.app.getHttpServer());
  });

  afterAll(() => close());

  it('fails the run with models.bad_request when the provider refuses, then the thread takes a new run', async () => {
    const threadId = await newThread(ctx, user);
    const before = fake.requests.length;
    fake.failNext(1, { kind: 'status', status: 400 });
    const run = await startRun(ctx, user, threadId, { input: 'first try' });
    const stream = await readSse(base, run.stream_url, auth(user));
    expect(stream.ended).toBe(true);
    // A 400 is not retried.
    expect(fake.requests.length - before).toBe(1);
    expect(stream.frames.slice(-3).map((f) => [f.event, f.data.payload])).toEqual([
      ['error', { code: 'models.bad_request', message: expect.any(String) }],
      ['status', { status: 'failed' }],
      ['done', { status: 'failed' }],
    ]);
    const got = await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(user));
    expect(got.body).toMatchObject({ status: 'failed', error: { code: 'models.bad_request' } });
    expect(got.body.finished_at).not.toBeNull();

    fake.script({ text: 'Second time lucky.' });
    const next = await startRun(ctx, user, threadId, { input: 'second try' });
    expect(await waitForStatus(ctx, next.run_id, isTerminal)).toBe('completed');
    const shown = fake.requests.at(-1)!.body.messages;
    expect(shown.at(-1)).toMatchObject({ role: 'user', content: 'second try' });
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.body.items.at(-1)).toMatchObject({ role: 'assistant', content: 'Second time lucky.' });
  });

  it('fails on the model call after a tool call; the next run shows that call with its real result', async () => {
    const threadId = await newThread(ctx, user);
    const first = fake.holdNext();
    const second = fake.holdNext();
    fake.script({
      toolCalls: [{ id: 'call_keep', name: 'write_file', args: { file_path: 'k.md', content: 'kept' } }],
    });
    const run = await startRun(ctx, user, threadId, { input: 'write then fail' });
    await first.arrived;
    first.release();
    await second.arrived;
    fake.failNext(1, { kind: 'status', status: 400 });
    second.release();

    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('failed');
    const events = await storedEvents(ctx, run.run_id);
    const types = events.map((e) => e.type);
    expect(types.indexOf('tool_result')).toBeLessThan(types.indexOf('error'));
    expect(events.find((e) => e.type === 'error')?.payload.code).toBe('models.bad_request');
    const written = events.find((e) => e.type === 'tool_result')!.payload;
    expect(written).toMatchObject({ tool_call_id: 'call_keep', is_error: false });

    fake.script({ text: 'All good.' });
    const next = await startRun(ctx, user, threadId, { input: 'continue' });
    expect(await waitForStatus(ctx, next.run_id, isTerminal)).toBe('completed');
    const shown = fake.requests.at(-1)!.body.messages;
    expect(unansweredToolCalls(shown)).toEqual([]);
    expect(toolAnswer(shown, 'call_keep')?.content).toBe(written.content);
  });

  it('returns a tool error to the model as a result and goes on to complete', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [{ id: 'call_missing', name: 'read_file', args: { file_path: 'missing.md' } }] },
      { text: 'That file does not exist.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'read missing.md' });
    const stream = await readSse(base, run.stream_url, auth(user));
    expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });

    const result = stream.frames.find((f) => f.event === 'tool_result')!.data.payload;
    expect(result).toMatchObject({ tool_call_id: 'call_missing', name: 'read_file', is_error: true });
    const parsed = JSON.parse(result.content as string);
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(parsed.error).toEqual(
      expect.objectContaining({
        code: expect.stringMatching(/^[a-z_]+\.[a-z_]+$/),
        message: expect.any(String),
      }),
    );
    // The model got exactly that content for its call.
    const shown = fake.requests.at(-1)!.body.messages;
    expect(toolAnswer(shown, 'call_missing')?.content).toBe(result.content);
    const rows = await ctx.dataSource.query<{ content: string }[]>(
      `SELECT content FROM messages WHERE run_id = $1 AND role = 'tool'`,
      [run.run_id],
    );
    expect(rows.map((r) => r.content)).toEqual([result.content]);
  });

  it('answers a tool outside the agent’s selection and an unknown tool with tools.not_executable', async () => {
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Reader', slug: 'reader-only', config: { tools: ['read_file'] } });
    expect(created.status).toBe(201);
    const threadId = await newThread(ctx, user, 'reader-only');
    fake.script(
      {
        toolCalls: [
          { id: 'call_write', name: 'write_file', args: { file_path: 'no.md', content: 'no' } },
          { id: 'call_ghost', name: 'no_such_tool', args: {} },
        ],
      },
      { text: 'I cannot do that.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'write no.md' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const request = fake.requests.at(-2)!;
    expect(offeredTools(request)).toContain('read_file');
    expect(offeredTools(request)).not.toContain('write_file');
    const results = (await storedEvents(ctx, run.run_id)).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => [e.payload.tool_call_id, e.payload.is_error])).toEqual([
      ['call_write', true],
      ['call_ghost', true],
    ]);
    for (const e of results) expect(JSON.parse(e.payload.content).error.code).toBe('tools.not_executable');
    await expect(stat(workdirFile(ctx, user.id, threadId, 'no.md'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    expect(unansweredToolCalls(fake.requests.at(-1)!.body.messages)).toEqual([]);
  });

  it('runs a tool call whose id the model reuses in a later turn, with its own result', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [{ id: 'call_0', name: 'write_file', args: { file_path: 'one.md', content: '1' } }] },
      { toolCalls: [{ id: 'call_0', name: 'write_file', args: { file_path: 'two.md', content: '2' } }] },
      { text: 'Both written.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'write two files' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    expect(await stat(workdirFile(ctx, user.id, threadId, 'two.md'))).toBeTruthy();
    const results = (await storedEvents(ctx, run.run_id)).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => [e.payload.tool_call_id, e.payload.is_error])).toEqual([
      ['call_0', false],
      ['call_0', false],
    ]);
    expect(results[1].payload.content).toContain('two.md');
    const shown = fake.requests.at(-1)!.body.messages.filter((m) => m.role === 'tool');
    expect(shown.map((m) => m.content)).toEqual(results.map((e) => e.payload.content));
  });

  it('present_artifacts emits an artifacts event and the thread state lists the file', async () => {
    const threadId = await newThread(ctx, user);
    const virtual = `/home/gem/user-data/workdir/t-${threadId}/report.md`;
    fake.script(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: 'report.md', content: '# Report' } },
        ],
      },
      {
        toolCalls: [
          { id: 'call_bad', name: 'present_artifacts', args: { filepaths: [`${virtual}.missing`] } },
          { id: 'call_p', name: 'present_artifacts', args: { filepaths: [virtual] } },
        ],
      },
      { text: 'Here is your report.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'make a report' });
    const stream = await readSse(base, run.stream_url, auth(user));
    expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });

    const artifacts = stream.frames.filter((f) => f.event === 'artifacts');
    expect(artifacts.map((f) => f.data.payload)).toEqual([{ paths: [virtual] }]);
    const results = stream.frames.filter((f) => f.event === 'tool_result').map((f) => f.data.payload);
    expect(results.map((r) => [r.tool_call_id, r.is_error])).toEqual([
      ['call_w', false],
      ['call_bad', true],
      ['call_p', false],
    ]);
    // Emitted while the presenting call ran: after its tool_call, before its result.
    const resultOfP = stream.frames.find(
      (f) => f.event === 'tool_result' && f.data.payload.tool_call_id === 'call_p',
    )!;
    expect(artifacts[0].id).toBeLessThan(resultOfP.id);

    const state = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({
      active_run: null,
      artifacts: [{ path: virtual, run_id: run.run_id }],
    });
    expect(state.body.artifacts).toHaveLength(1);
    expect(await stat(workdirFile(ctx, user.id, threadId, 'report.md'))).toBeTruthy();
  });
});
