import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import { childRuns, eventsOf, requestsFor, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, gate, parentTurns, startCall, systemPrompt } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

const SUBAGENT_TOOLS = ['subagent_start', 'subagent_status', 'subagent_await', 'subagent_cancel'];

/** Issue 14: a parent starts two children in parallel, then awaits both; its slot is free meanwhile. */
describe('subagents: start two children, then await both', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let scripts: SubagentScripts;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    scripts = new SubagentScripts(fake);
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it('gives the model each child’s output as the result of its await, one tool message per call', async () => {
    const children = gate();
    scripts
      .on('task A', () => ({ reply: { text: 'output of A' }, after: children.opened }))
      .on('task B', () => ({ reply: { text: 'output of B' }, after: children.opened }))
      .on(
        'research A and B',
        parentTurns([
          () => ({ toolCalls: [startCall('start_a', 'task A'), startCall('start_b', 'task B')] }),
          (results) => ({
            toolCalls: [
              call('await_a', 'subagent_await', { run_id: results.get('start_a')!.run_id }),
              call('await_b', 'subagent_await', { run_id: results.get('start_b')!.run_id }),
            ],
          }),
          () => ({ text: 'A and B summarized' }),
        ]),
      );
    const threadId = await newThread(ctx, user);
    const parent = await startRun(ctx, user, threadId, { input: 'research A and B' });

    // While both children are held in their model call, the parent waits without a lease.
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting')).toBe('waiting');
    const [parked] = await ctx.dataSource.query<{ lease_token: string | null; awaited: string[] }[]>(
      `SELECT lease_token, awaited_run_ids AS awaited FROM runs WHERE id = $1`,
      [parent.run_id],
    );
    expect(parked.lease_token).toBeNull();
    const kids = await childRuns(ctx, parent.run_id);
    expect(kids).toHaveLength(2);
    expect([...parked.awaited].sort()).toEqual(kids.map((kid) => kid.id).sort());
    // Waiting for children is not a question.
    const point = await ctx.http.get(`/api/runs/${parent.run_id}/waiting-point`).set(auth(user));
    expect(point.status).toBe(404);
    const answer = await ctx.http
      .post(`/api/runs/${parent.run_id}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'x' } });
    expect(answer.status).toBe(404);

    children.open();
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const finished = await childRuns(ctx, parent.run_id);
    expect(finished.map((kid) => kid.status)).toEqual(['completed', 'completed']);

    const [, second, last] = requestsFor(fake, 'research A and B');
    const started = ['start_a', 'start_b'].map((id) =>
      JSON.parse(String(toolAnswer(second.body.messages, id)!.content)),
    );
    expect(started).toEqual([
      {
        status: 'started',
        run_id: finished[0].id,
        thread_id: finished[0].thread_id,
        subagent_slug: 'general-purpose',
      },
      {
        status: 'started',
        run_id: finished[1].id,
        thread_id: finished[1].thread_id,
        subagent_slug: 'general-purpose',
      },
    ]);
    const awaited = last.body.messages.filter(
      (m) => m.role === 'tool' && String(m.tool_call_id).startsWith('await_'),
    );
    expect(awaited.map((m) => [m.tool_call_id, JSON.parse(String(m.content))])).toEqual([
      ['await_a', { run_id: finished[0].id, status: 'completed', output: 'output of A' }],
      ['await_b', { run_id: finished[1].id, status: 'completed', output: 'output of B' }],
    ]);
    // Each call has exactly one tool message, in every request.
    for (const { body } of requestsFor(fake, 'research A and B')) {
      const ids = body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
      expect(new Set(ids).size).toBe(ids.length);
    }

    // The parent's stream summarizes each child: started, then ended.
    const subagentEvents = (await eventsOf(ctx, parent.run_id)).filter((e) => e.type === 'subagent');
    for (const kid of finished) {
      expect(subagentEvents.filter((e) => e.payload.run_id === kid.id).map((e) => e.payload)).toEqual([
        { run_id: kid.id, thread_id: kid.thread_id, subagent_slug: 'general-purpose', status: 'queued' },
        { run_id: kid.id, thread_id: kid.thread_id, subagent_slug: 'general-purpose', status: 'completed' },
      ]);
    }
    const statuses = (await eventsOf(ctx, parent.run_id))
      .filter((e) => e.type === 'status')
      .map((e) => e.payload.status);
    expect(statuses).toEqual(['queued', 'running', 'waiting', 'queued', 'running', 'completed']);
  });

  it('streams a child’s own events on its SSE stream; its thread is readable by id, not listed', async () => {
    scripts
      .on('task C', () => ({ text: 'output of C' }))
      .on(
        'delegate C',
        parentTurns([
          () => ({ toolCalls: [startCall('start_c', 'task C')] }),
          (results) => ({
            toolCalls: [call('await_c', 'subagent_await', { run_id: results.get('start_c')!.run_id })],
          }),
          () => ({ text: 'C done' }),
        ]),
      );
    const threadId = await newThread(ctx, user);
    const parent = await startRun(ctx, user, threadId, { input: 'delegate C' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const [child] = await childRuns(ctx, parent.run_id);

    const base = await listeningUrl(ctx.app.getHttpServer());
    const stream = await readSse(base, `/api/runs/${child.id}/events`, auth(user));
    expect(stream.ended).toBe(true);
    const messages = stream.frames.filter((f) => f.event === 'message').map((f) => f.data.payload.content);
    expect(messages).toEqual(['output of C']);
    expect(stream.frames.at(-1)!.data.payload).toEqual({ status: 'completed' });

    const thread = await ctx.http.get(`/api/threads/${child.thread_id}`).set(auth(user));
    expect(thread.status).toBe(200);
    expect(thread.body).toMatchObject({ id: child.thread_id, agent_slug: 'general-purpose' });
    const history = await ctx.http.get(`/api/threads/${child.thread_id}/messages`).set(auth(user));
    expect(history.body.items.map((m: { role: string; content: string }) => [m.role, m.content])).toEqual([
      ['user', 'task C'],
      ['assistant', 'output of C'],
    ]);
    const listed = await ctx.http.get('/api/threads?limit=200').set(auth(user));
    const ids = listed.body.items.map((t: { id: string }) => t.id);
    expect(ids).toContain(threadId);
    expect(ids).not.toContain(child.thread_id);
    const stranger = await ctx.newUser();
    expect((await ctx.http.get(`/api/threads/${child.thread_id}`).set(auth(stranger))).status).toBe(404);
    expect((await ctx.http.get(`/api/runs/${child.id}`).set(auth(stranger))).status).toBe(404);
  });

  it('mounts the subagent tools and lists callable subagents only when the selection is non-empty', async () => {
    scripts
      .on('hello with subagents', () => ({ text: 'hi' }))
      .on('hello without subagents', () => ({ text: 'hi' }));
    const withThread = await newThread(ctx, user);
    const withRun = await startRun(ctx, user, withThread, { input: 'hello with subagents' });
    expect(await waitForStatus(ctx, withRun.run_id, isTerminal)).toBe('completed');
    const agent = await ctx.http
      .post('/api/agents')
      .set(auth(user))
      .send({ name: 'Solo', config: { subagents: [] } });
    expect(agent.status).toBe(201);
    const withoutThread = await newThread(ctx, user, agent.body.slug);
    const withoutRun = await startRun(ctx, user, withoutThread, { input: 'hello without subagents' });
    expect(await waitForStatus(ctx, withoutRun.run_id, isTerminal)).toBe('completed');

    const [withRequest] = requestsFor(fake, 'hello with subagents');
    expect(offeredTools(withRequest)).toEqual(expect.arrayContaining(SUBAGENT_TOOLS));
    expect(systemPrompt(withRequest.body)).toContain(
      '- general-purpose (General purpose): Handles a delegated task on its own and reports the result.',
    );
    const [withoutRequest] = requestsFor(fake, 'hello without subagents');
    expect(offeredTools(withoutRequest).filter((name) => SUBAGENT_TOOLS.includes(name))).toEqual([]);
    expect(systemPrompt(withoutRequest.body)).not.toContain('general-purpose');
  });
});
