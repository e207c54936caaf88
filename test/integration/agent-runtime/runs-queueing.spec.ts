import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { countRows, runRow } from '../../support/runs/run-rows';
import type { TestContext, TestUser } from '../../support/test-app';

interface MessageItem {
  id: string;
  run_id: string;
  role: string;
  content: string;
}

describe('runs HTTP API: FIFO per thread, reject policy, messages and state', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  const post = (threadId: string, body: object) =>
    ctx.http.post(`/api/threads/${threadId}/runs`).set(auth(user)).send(body);
  const completed = async (runId: string) =>
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
  /** The conversation the model was shown (system prompt left out). */
  const shown = (requestIndex: number) =>
    fake.requests[requestIndex].body.messages
      .filter((m) => m.role !== 'system')
      .map((m) => `${m.role}: ${String(m.content)}`);

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({
      // No recovery sweep during the tests: a run starts from the job of its creation or not at all.
      RUN_RECONCILE_SECONDS: '600',
    }));
    user = await ctx.newUser();
  });

  afterAll(() => close?.());

  it('queues a second run behind the running one and starts it only after the first finished', async () => {
    const threadId = await newThread(ctx, user);
    const before = fake.requests.length;
    const hold = fake.holdNext();
    fake.script({ text: 'First answer.' }, { text: 'Second answer.' });
    const first = await startRun(ctx, user, threadId, { input: 'First question' });
    await hold.arrived;

    const second = await startRun(ctx, user, threadId, { input: 'Second question' });
    expect(second).toMatchObject({
      status: 'queued',
      queue_position: 1,
      stream_url: `/api/runs/${second.run_id}/events`,
    });
    const queuedRow = await runRow(ctx, second.run_id);
    expect(queuedRow).toMatchObject({ status: 'queued', started_at: null });
    expect(fake.requests).toHaveLength(before + 1);

    hold.release();
    await completed(first.run_id);
    await completed(second.run_id);

    const [a, b] = [await runRow(ctx, first.run_id), await runRow(ctx, second.run_id)];
    expect(b.started_at!.getTime()).toBeGreaterThanOrEqual(a.finished_at!.getTime());
    expect(fake.requests).toHaveLength(before + 2);
    expect(shown(before)).toEqual(['user: First question']);
    expect(shown(before + 1)).toEqual([
      'user: First question',
      'assistant: First answer.',
      'user: Second question',
    ]);
  });

  it('refuses a run with queue_policy reject on a busy thread with 409 runs.thread_busy, inserting nothing', async () => {
    const threadId = await newThread(ctx, user);
    const hold = fake.holdNext();
    fake.script({ text: 'Busy answer.' });
    const first = await startRun(ctx, user, threadId, { input: 'Keep busy' });
    await hold.arrived;

    const refused = await post(threadId, { input: 'Now please', queue_policy: 'reject' });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'runs.thread_busy',
      details: { active_run_id: first.run_id },
    });
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);

    hold.release();
    await completed(first.run_id);
    // The same policy on an idle thread starts at once.
    fake.script({ text: 'Idle answer.' });
    const accepted = await post(threadId, { input: 'Now please', queue_policy: 'reject' });
    expect(accepted.status).toBe(202);
    expect(accepted.body.queue_position).toBe(0);
    await completed(accepted.body.run_id);
  });

  it('calls the model named in the request instead of the agent’s', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({ text: 'From the other model.' });
    const run = await startRun(ctx, user, threadId, { input: 'Use another model', model: 'other-model' });
    await completed(run.run_id);
    expect(fake.requests.at(-1)!.body.model).toBe('other-model');
    fake.script({ text: 'From the default.' });
    await completed((await startRun(ctx, user, threadId, { input: 'And now?' })).run_id);
    expect(fake.requests.at(-1)!.body.model).toBe('fake-model');
  });

  it('answers concurrent identical POSTs with one run while a worker is taking it', async () => {
    const body = { input: 'Race the worker', request_id: 'race-worker-1' };
    for (let round = 0; round < 3; round++) {
      const threadId = await newThread(ctx, user);
      fake.script({ text: `Raced ${round}.` });
      const payload = { ...body, request_id: `${body.request_id}-${round}` };
      const responses = await Promise.all([1, 2, 3, 4, 5].map(() => post(threadId, payload)));
      expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202, 202]);
      expect(new Set(responses.map((r) => r.body.run_id as string)).size).toBe(1);
      expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
      // Started by the job of its creation (a claim lost to a deadlock would leave it queued).
      expect(await waitForStatus(ctx, responses[0].body.run_id as string, isTerminal)).toBe('completed');
    }
  });

  it('pages the messages of a thread oldest first by next_cursor', async () => {
    const threadId = await newThread(ctx, user);
    const runIds: string[] = [];
    for (const n of [1, 2]) {
      fake.script({ text: `Reply ${n}` });
      const run = await startRun(ctx, user, threadId, { input: `Question ${n}` });
      await completed(run.run_id);
      runIds.push(run.run_id);
    }

    const pages: { items: MessageItem[]; next_cursor: string | null }[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor === null ? 'limit=2' : `limit=2&cursor=${encodeURIComponent(cursor)}`;
      const res = await ctx.http.get(`/api/threads/${threadId}/messages?${query}`).set(auth(user));
      expect(res.status).toBe(200);
      pages.push(res.body as { items: MessageItem[]; next_cursor: string | null });
      cursor = pages.at(-1)!.next_cursor;
    } while (cursor !== null && pages.length < 5);

    expect(pages.map((p) => p.items.length)).toEqual([2, 2]);
    expect(pages[0].next_cursor).toEqual(expect.any(String));
    const items = pages.flatMap((p) => p.items);
    expect(items.map((m) => [m.role, m.content, m.run_id])).toEqual([
      ['user', 'Question 1', runIds[0]],
      ['assistant', 'Reply 1', runIds[0]],
      ['user', 'Question 2', runIds[1]],
      ['assistant', 'Reply 2', runIds[1]],
    ]);
    const stored = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM messages WHERE thread_id = $1 ORDER BY position`,
      [threadId],
    );
    expect(items.map((m) => m.id)).toEqual(stored.map((m) => m.id));

    const whole = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(whole.body.next_cursor).toBeNull();
    expect(whole.body.items).toEqual(items);
    const garbage = await ctx.http
      .get(`/api/threads/${threadId}/messages?cursor=not-a-cursor`)
      .set(auth(user));
    expect(garbage.status).toBe(400);
    expect(garbage.body.code).toBe('common.validation_failed');
  });

  it('reports the running run as active_run while it runs, none after, and the presented artifacts', async () => {
    const threadId = await newThread(ctx, user);
    const empty = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(empty.body).toEqual({ active_run: null, artifacts: [], activated_skills: [] });

    const thread = await ctx.http.get(`/api/threads/${threadId}`).set(auth(user));
    const reportPath = `${(thread.body.workdir as string).replace(/\/$/, '')}/report.md`;
    const hold = fake.holdNext();
    fake.script(
      { toolCalls: [{ name: 'write_file', args: { file_path: 'report.md', content: '# Report' } }] },
      { toolCalls: [{ name: 'present_artifacts', args: { filepaths: [reportPath] } }] },
      { text: 'Here is the report.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'Write and present a report' });
    await hold.arrived;

    const during = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(during.status).toBe(200);
    expect(during.body).toMatchObject({
      active_run: { id: run.run_id, thread_id: threadId, status: 'running', finished_at: null },
      artifacts: [],
    });

    hold.release();
    await completed(run.run_id);
    const after = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(after.body).toEqual({
      active_run: null,
      artifacts: [{ path: reportPath, run_id: run.run_id, created_at: expect.any(String) }],
      activated_skills: [],
    });
    expect(new Date(after.body.artifacts[0].created_at).toISOString()).toBe(
      after.body.artifacts[0].created_at,
    );
  });
});
