import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import type { FakeReply, RecordedRequest } from '../../support/fake-openai/fake-openai-script';
import { childRuns } from '../../support/subagents/subagent-runtime';
import { call, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

/** Token usage of real runs: HTTP → queue → worker → fake model (with usage) → rows, events, routes. */
describe('token usage of runs, read back per call, run, thread and user', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let threadId: string;
  let firstRunId: string;

  const usageOf = (prompt: number, completion: number, cached?: number) => ({
    prompt_tokens: prompt,
    completion_tokens: completion,
    ...(cached === undefined ? {} : { cached_tokens: cached }),
  });

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    [owner, other, admin] = await Promise.all([ctx.newUser(), ctx.newUser(), ctx.newUser({ role: 'admin' })]);
    // Routed by the latest user message: a thread's second run sees its first run's messages too.
    const routes = new Map<string, (body: RecordedRequest['body']) => FakeReply>([
      [
        'write then answer',
        parentTurns([
          () => ({
            toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'u.md', content: 'x' } }],
            usage: usageOf(100, 20, 40),
          }),
          () => ({ text: 'written', usage: usageOf(150, 30) }),
        ]),
      ],
      ['answer on model b', () => ({ text: 'b', usage: usageOf(7, 3, 2) })],
      [
        'delegate',
        parentTurns([
          () => ({ toolCalls: [startCall('s', 'child work')], usage: usageOf(50, 5) }),
          (results) => ({
            toolCalls: [call('a', 'subagent_await', { run_id: results.get('s')!.run_id })],
            usage: usageOf(40, 4),
          }),
          () => ({ text: 'delegated', usage: usageOf(60, 6) }),
        ]),
      ],
      ['child work', () => ({ text: 'child done', usage: usageOf(1000, 100, 500) })],
      ['other user run', () => ({ text: 'mine', usage: usageOf(3, 1) })],
    ]);
    fake.route((body) => {
      const last = body.messages.filter((message) => message.role === 'user').at(-1);
      return routes.get(String(last?.content))?.(body);
    });
    threadId = await newThread(ctx, owner);
  });
  afterAll(() => close());

  it('stores one row per model call, streams a usage event per call, and sums them as the run token_usage', async () => {
    const run = await startRun(ctx, owner, threadId, { input: 'write then answer', model: 'model-a' });
    firstRunId = run.run_id;
    const stream = await readSse(await listeningUrl(ctx.app.getHttpServer()), run.stream_url, auth(owner));
    expect(stream.frames.at(-1)?.data.payload).toEqual({ status: 'completed' });

    const usageEvents = stream.frames.filter((frame) => frame.event === 'usage').map((f) => f.data.payload);
    expect(usageEvents).toEqual([
      { model: 'model-a', input_tokens: 100, output_tokens: 20, cached_tokens: 40 },
      { model: 'model-a', input_tokens: 150, output_tokens: 30, cached_tokens: 0 },
    ]);
    // Each usage event follows its reply's message (same statement, consecutive numbers).
    const types = stream.frames.map((frame) => frame.event).filter((type) => type !== 'message_delta');
    expect(types.filter((type) => ['message', 'tool_call', 'usage'].includes(type))).toEqual([
      'message',
      'tool_call',
      'usage',
      'message',
      'usage',
    ]);

    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(owner));
    const replyIds = (messages.body.items as { id: string; role: string }[])
      .filter((message) => message.role === 'assistant')
      .map((message) => message.id);
    const [{ agent_id: agentId }] = await ctx.dataSource.query<{ agent_id: string }[]>(
      `SELECT agent_id FROM threads WHERE id = $1`,
      [threadId],
    );
    const rows = await ctx.dataSource.query<Record<string, unknown>[]>(
      `SELECT id, thread_id, user_id, agent_id, model, purpose, input_tokens, output_tokens, cached_tokens
         FROM model_usage WHERE run_id = $1 ORDER BY input_tokens`,
      [run.run_id],
    );
    const common = {
      thread_id: threadId,
      user_id: owner.id,
      agent_id: agentId,
      model: 'model-a',
      purpose: 'agent',
    };
    expect(rows).toEqual([
      { id: replyIds[0], ...common, input_tokens: 100, output_tokens: 20, cached_tokens: 40 },
      { id: replyIds[1], ...common, input_tokens: 150, output_tokens: 30, cached_tokens: 0 },
    ]);

    const read = await ctx.http.get(`/api/runs/${run.run_id}`).set(auth(owner));
    expect(read.body.token_usage).toEqual({
      input_tokens: 250,
      output_tokens: 50,
      total_tokens: 300,
      cached_tokens: 40,
    });
  });

  it("sums a thread's runs by model", async () => {
    const second = await startRun(ctx, owner, threadId, { input: 'answer on model b', model: 'model-b' });
    expect(await waitForStatus(ctx, second.run_id, isTerminal)).toBe('completed');

    const res = await ctx.http.get(`/api/threads/${threadId}/usage`).set(auth(owner));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      total: { input_tokens: 257, output_tokens: 53, cached_tokens: 42, calls: 3 },
      by_model: [
        { model: 'model-a', input_tokens: 250, output_tokens: 50, cached_tokens: 40, calls: 2 },
        { model: 'model-b', input_tokens: 7, output_tokens: 3, cached_tokens: 2, calls: 1 },
      ],
    });
  });

  it('leaves subagent runs out of the parent thread and run unless include_children=true', async () => {
    const parentThread = await newThread(ctx, owner);
    const parent = await startRun(ctx, owner, parentThread, { input: 'delegate' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [child] = await childRuns(ctx, parent.run_id);
    expect(await waitForStatus(ctx, child.id, isTerminal)).toBe('completed');

    const own = await ctx.http.get(`/api/threads/${parentThread}/usage`).set(auth(owner));
    expect(own.body.total).toEqual({ input_tokens: 150, output_tokens: 15, cached_tokens: 0, calls: 3 });
    const withChildren = await ctx.http
      .get(`/api/threads/${parentThread}/usage?include_children=true`)
      .set(auth(owner));
    expect(withChildren.body.total).toEqual({
      input_tokens: 1150,
      output_tokens: 115,
      cached_tokens: 500,
      calls: 4,
    });
    expect(withChildren.body.by_model).toEqual([
      { model: 'fake-model', input_tokens: 1150, output_tokens: 115, cached_tokens: 500, calls: 4 },
    ]);
    const explicitNo = await ctx.http
      .get(`/api/threads/${parentThread}/usage?include_children=false`)
      .set(auth(owner));
    expect(explicitNo.body).toEqual(own.body);
    // The child's own thread answers its owner with the child's calls; the parent run counts its own.
    const childThread = await ctx.http.get(`/api/threads/${child.thread_id}/usage`).set(auth(owner));
    expect(childThread.body.total).toEqual({
      input_tokens: 1000,
      output_tokens: 100,
      cached_tokens: 500,
      calls: 1,
    });
    const parentRun = await ctx.http.get(`/api/runs/${parent.run_id}`).set(auth(owner));
    expect(parentRun.body.token_usage).toEqual({
      input_tokens: 150,
      output_tokens: 15,
      total_tokens: 165,
      cached_tokens: 0,
    });
  });

  it("never shows another user's thread usage (404) or lets a user read another's report (403)", async () => {
    const notFound = await ctx.http.get(`/api/threads/${threadId}/usage`).set(auth(other));
    expect(notFound.status).toBe(404);
    expect(notFound.body.code).toBe('threads.not_found');
    const forbidden = await ctx.http.get(`/api/usage?group_by=model&user_id=${owner.id}`).set(auth(other));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe('usage.user_forbidden');

    const otherThread = await newThread(ctx, other);
    const mine = await startRun(ctx, other, otherThread, { input: 'other user run' });
    expect(await waitForStatus(ctx, mine.run_id, isTerminal)).toBe('completed');
    // Without user_id a user gets their own calls only, whatever the grouping.
    for (const groupBy of ['user', 'model', 'agent', 'day']) {
      const res = await ctx.http.get(`/api/usage?group_by=${groupBy}`).set(auth(other));
      expect(res.status).toBe(200);
      expect(res.body.items).toEqual([
        expect.objectContaining({ input_tokens: 3, output_tokens: 1, cached_tokens: 0, calls: 1 }),
      ]);
    }
    const byUser = await ctx.http.get(`/api/usage?group_by=user&user_id=${other.id}`).set(auth(other));
    expect(byUser.body).toEqual({
      items: [{ key: other.id, input_tokens: 3, output_tokens: 1, cached_tokens: 0, calls: 1 }],
      next_cursor: null,
    });
  });

  it("gives admins everyone's usage, or one user's with user_id, in pages", async () => {
    const everyone = await ctx.http.get('/api/usage?group_by=user').set(auth(admin));
    expect(everyone.status).toBe(200);
    const keys = (everyone.body.items as { key: string }[]).map((item) => item.key);
    expect(keys).toEqual([owner.id, other.id].sort());
    const ownerRow = (everyone.body.items as { key: string }[]).find((item) => item.key === owner.id);
    expect(ownerRow).toEqual({
      key: owner.id,
      input_tokens: 1407,
      output_tokens: 168,
      cached_tokens: 542,
      calls: 7,
    });

    const byModel = await ctx.http.get(`/api/usage?group_by=model&user_id=${owner.id}`).set(auth(admin));
    expect(byModel.body.items).toEqual([
      { key: 'fake-model', input_tokens: 1150, output_tokens: 115, cached_tokens: 500, calls: 4 },
      { key: 'model-a', input_tokens: 250, output_tokens: 50, cached_tokens: 40, calls: 2 },
      { key: 'model-b', input_tokens: 7, output_tokens: 3, cached_tokens: 2, calls: 1 },
    ]);
    const first = await ctx.http
      .get(`/api/usage?group_by=model&user_id=${owner.id}&limit=2`)
      .set(auth(admin));
    expect(first.body.items.map((item: { key: string }) => item.key)).toEqual(['fake-model', 'model-a']);
    const next = await ctx.http
      .get(`/api/usage?group_by=model&user_id=${owner.id}&limit=2&cursor=${first.body.next_cursor}`)
      .set(auth(admin));
    expect(next.body).toEqual({ items: [byModel.body.items[2]], next_cursor: null });

    const byAgent = await ctx.http.get(`/api/usage?group_by=agent&user_id=${owner.id}`).set(auth(admin));
    const agents = await ctx.dataSource.query<{ agent_id: string }[]>(
      `SELECT DISTINCT agent_id::text AS agent_id FROM runs WHERE user_id = $1 ORDER BY 1`,
      [owner.id],
    );
    expect(byAgent.body.items.map((item: { key: string }) => item.key)).toEqual(
      agents.map((a) => a.agent_id),
    );
    // Each agent is named, so a report can say which agent spent the tokens.
    const names = await ctx.dataSource.query<{ id: string; name: string }[]>(
      `SELECT id::text AS id, name FROM agents WHERE id = ANY($1::uuid[])`,
      [agents.map((a) => a.agent_id)],
    );
    expect(byAgent.body.items.map((item: { key: string; label: string }) => [item.key, item.label])).toEqual(
      agents.map((a) => [a.agent_id, names.find((n) => n.id === a.agent_id)!.name]),
    );
    const today = new Date().toISOString().slice(0, 10);
    const byDay = await ctx.http.get(`/api/usage?group_by=day&user_id=${owner.id}`).set(auth(admin));
    expect(byDay.body.items).toEqual([{ ...ownerRow, key: today }]);
    expect(byDay.body.items[0]).not.toHaveProperty('label');
    expect(firstRunId).toBeDefined();
  });
});
