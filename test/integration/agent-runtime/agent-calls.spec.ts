import { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, waitForStatus } from '../../support/runs/run-helpers';
import { countRows, runRow } from '../../support/runs/run-rows';
import { TestContext, type TestUser } from '../../support/test-app';

describe('POST /api/agent-calls', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;

  const call = (body: object, as: TestUser = user, app: TestContext = ctx) =>
    app.http.post('/api/agent-calls').set(auth(as)).send(body);
  const start = (waitSeconds: string) =>
    TestContext.start({
      APP_ROLE: 'all',
      OPENAI_BASE_URL: fake.baseUrl,
      DEFAULT_MODEL: 'fake-model',
      AGENT_CALL_WAIT_SECONDS: waitSeconds,
    });
  const threadsOf = async (as: TestUser) =>
    (await ctx.http.get('/api/threads').set(auth(as))).body.items as {
      id: string;
      agent_slug: string;
      title: string;
    }[];

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    // A bound far above a run's duration: the waiting calls here must not race it.
    ctx = await start('20');
    user = await ctx.newUser();
  });

  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it('creates a thread and, with wait: true, answers with the final assistant text of the completed run', async () => {
    fake.script(
      {
        text: 'Let me note that.',
        toolCalls: [{ name: 'write_file', args: { file_path: 'note.md', content: 'blue' } }],
      },
      { text: 'Noted: blue.' },
    );
    const res = await call({ agent_slug: 'default-chatbot', input: '  Remember blue  ', wait: true });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      run_id: expect.any(String),
      thread_id: expect.any(String),
      status: 'completed',
      output: 'Noted: blue.',
    });

    const listed = await threadsOf(user);
    expect(listed).toContainEqual(
      expect.objectContaining({
        id: res.body.thread_id,
        agent_slug: 'default-chatbot',
        title: 'Remember blue',
      }),
    );
    expect(await runRow(ctx, res.body.run_id)).toMatchObject({
      thread_id: res.body.thread_id,
      status: 'completed',
      input: '  Remember blue  ',
    });
    const messages = await ctx.http.get(`/api/threads/${res.body.thread_id}/messages`).set(auth(user));
    expect(messages.body.items.at(-1)).toMatchObject({ role: 'assistant', content: 'Noted: blue.' });
  });

  it('without wait answers at once with the queued run, which then completes in the given thread', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'Later.' });
    const res = await call({ agent_slug: 'default-chatbot', input: 'No hurry', thread_id: threadId });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ run_id: expect.any(String), thread_id: threadId, status: 'queued' });
    expect(await waitForStatus(ctx, res.body.run_id, isTerminal)).toBe('completed');
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
  });

  it('refuses a thread of another agent with 422 and an unknown agent with 422, creating nothing', async () => {
    const agent = await ctx.http.post('/api/agents').set(auth(user)).send({ name: 'Other Agent' });
    expect(agent.status).toBe(201);
    const otherThread = await newThread(ctx, user, agent.body.slug as string);
    const threadsBefore = await countRows(ctx, 'threads', 'user_id', user.id);

    const mismatch = await call({ agent_slug: 'default-chatbot', input: 'Hi', thread_id: otherThread });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body).toMatchObject({
      code: 'agent_calls.thread_agent_mismatch',
      details: { field: 'thread_id', thread_agent_slug: agent.body.slug },
    });
    const unknown = await call({ agent_slug: 'no-such-agent', input: 'Hi' });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe('threads.unknown_agent');

    expect(await countRows(ctx, 'runs', 'thread_id', otherThread)).toBe(0);
    expect(await countRows(ctx, 'threads', 'user_id', user.id)).toBe(threadsBefore);
  });

  it('refuses another user’s thread with 404 threads.not_found and a bad body with 400', async () => {
    const stranger = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    const foreign = await call({ agent_slug: 'default-chatbot', input: 'Hi', thread_id: threadId }, stranger);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('threads.not_found');
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(0);

    for (const body of [
      { agent_slug: 'default-chatbot' },
      { agent_slug: 'default-chatbot', input: '' },
      { agent_slug: 'default-chatbot', input: 'Hi', wait: 'yes' },
      { agent_slug: 'default-chatbot', input: 'Hi', thread_id: 'not-a-uuid' },
      { agent_slug: 'default-chatbot', input: 'Hi', extra: 1 },
    ]) {
      const res = await call(body, stranger);
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 400,
        code: 'common.validation_failed',
      });
    }
    expect(await countRows(ctx, 'threads', 'user_id', stranger.id)).toBe(0);
  });

  it('replays a request_id: the same run and thread, one of each; a different payload → 409', async () => {
    fake.script({ text: 'Once.' });
    const body = { agent_slug: 'default-chatbot', input: 'Only once', request_id: 'agent-call-1' };
    const first = await call({ ...body, wait: true });
    expect(first.body).toMatchObject({ status: 'completed', output: 'Once.' });
    const replay = await call({ ...body, wait: true });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    const noWait = await call(body);
    expect(noWait.body).toEqual({
      run_id: first.body.run_id,
      thread_id: first.body.thread_id,
      status: 'completed',
    });

    expect(await countRows(ctx, 'runs', 'thread_id', first.body.thread_id)).toBe(1);
    expect((await threadsOf(user)).filter((t) => t.id === first.body.thread_id)).toHaveLength(1);
    const sameTitle = (await threadsOf(user)).filter((t) => t.title === 'Only once');
    expect(sameTitle).toHaveLength(1);

    const conflict = await call({ ...body, input: 'Something else' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('common.request_id_conflict');
    expect((await threadsOf(user)).filter((t) => t.title === 'Something else')).toHaveLength(0);
  });

  it('keeps no thread when the run cannot be created (request_id already used for another payload)', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'first' });
    const first = await ctx.http
      .post(`/api/threads/${threadId}/runs`)
      .set(auth(user))
      .send({ input: 'one', request_id: 'shared-id' });
    expect(first.status).toBe(202);
    const before = (await threadsOf(user)).length;
    const res = await call({ agent_slug: 'default-chatbot', input: 'two', request_id: 'shared-id' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('common.request_id_conflict');
    expect((await threadsOf(user)).length).toBe(before);
    expect(await waitForStatus(ctx, first.body.run_id as string, isTerminal)).toBe('completed');
  });

  it('creates one thread and one run for concurrent calls with the same request_id', async () => {
    fake.script({ text: 'Once, concurrently.' });
    const body = { agent_slug: 'default-chatbot', input: 'Concurrent call', request_id: 'agent-call-race' };
    const responses = await Promise.all([1, 2, 3, 4].map(() => call(body)));
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const ids = new Set(responses.map((r) => `${r.body.run_id as string}/${r.body.thread_id as string}`));
    expect(ids.size).toBe(1);
    const { run_id: runId, thread_id: threadId } = responses[0].body as { run_id: string; thread_id: string };
    expect((await threadsOf(user)).filter((t) => t.title === 'Concurrent call').map((t) => t.id)).toEqual([
      threadId,
    ]);
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
  });

  describe('with AGENT_CALL_WAIT_SECONDS=1', () => {
    let short: TestContext;
    let owner: TestUser;

    beforeAll(async () => {
      short = await start('1');
      owner = await short.newUser();
    });

    afterAll(async () => {
      await short?.close();
    });

    it('answers 504 runs.wait_timeout with the ids when the run outlasts the bound, and the run still completes', async () => {
      const hold = fake.holdNext();
      fake.script({ text: 'Finally.' });
      const startedAt = Date.now();
      const res = await call(
        { agent_slug: 'default-chatbot', input: 'Take your time', wait: true },
        owner,
        short,
      );
      expect(res.status).toBe(504);
      // It waited for the bound, not much longer.
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900);
      expect(Date.now() - startedAt).toBeLessThan(10_000);
      expect(res.body).toMatchObject({
        status_code: 504,
        code: 'runs.wait_timeout',
        details: { run_id: expect.any(String), thread_id: expect.any(String) },
      });
      const { run_id: runId, thread_id: threadId } = res.body.details as {
        run_id: string;
        thread_id: string;
      };
      const row = await runRow(short, runId);
      expect(row.thread_id).toBe(threadId);
      expect(['queued', 'running']).toContain(row.status);

      await hold.arrived;
      hold.release();
      expect(await waitForStatus(short, runId, isTerminal)).toBe('completed');
      const messages = await short.http.get(`/api/threads/${threadId}/messages`).set(auth(owner));
      expect(messages.body.items.map((m: { content: string }) => m.content)).toEqual([
        'Take your time',
        'Finally.',
      ]);
    });
  });
});
