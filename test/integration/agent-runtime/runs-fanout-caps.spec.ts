import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { childRuns, requestsFor, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, gate, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import type { TestContext, TestUser } from '../../support/test-app';

const CHILDREN = 2;
const PER_TURN = 4;
const PER_USER = 5;

/** Issue 25 item 17: caps on fan-out (children per parent, tool calls per turn, active runs per user). */
describe('runs: fan-out caps', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let scripts: SubagentScripts;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime({
      SUBAGENT_MAX_ACTIVE_CHILDREN: String(CHILDREN),
      RUN_MAX_TOOL_CALLS_PER_TURN: String(PER_TURN),
      RUNS_MAX_ACTIVE_PER_USER: String(PER_USER),
    }));
    scripts = new SubagentScripts(fake);
  });
  afterAll(() => close());

  const resultOf = (input: string, toolCallId: string) => {
    for (const { body } of requestsFor(fake, input)) {
      const answer = toolAnswer(body.messages, toolCallId);
      if (answer !== undefined) return JSON.parse(String(answer.content)) as Record<string, unknown>;
    }
    throw new Error(`no result for ${toolCallId}`);
  };

  const activeRunsOf = async (user: TestUser) =>
    (
      await ctx.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM runs WHERE user_id = $1 AND status IN ('queued', 'running', 'cancel_requested')`,
        [user.id],
      )
    )[0].n;

  /** `count` active runs of `user`: one held in its model call, the rest queued behind it on its thread. */
  async function occupy(user: TestUser, count: number, input: string) {
    const held = gate();
    scripts.on(input, () => ({ reply: { text: 'released' }, after: held.opened }));
    const threadId = await newThread(ctx, user);
    const runs: string[] = [];
    for (let i = 0; i < count; i++) runs.push((await startRun(ctx, user, threadId, { input })).run_id);
    await waitForStatus(ctx, runs[0], (s) => s === 'running');
    return {
      release: async () => {
        held.open();
        for (const id of runs) await waitForStatus(ctx, id, isTerminal);
      },
    };
  }

  it(`refuses a subagent_start past ${CHILDREN} active children of the parent with subagents.limit_reached`, async () => {
    const user = await ctx.newUser();
    const held = gate();
    scripts
      .on('capped child', () => ({ reply: { text: 'child done' }, after: held.opened }))
      .on(
        'many children',
        parentTurns([
          () => ({
            toolCalls: [
              startCall('c1', 'capped child'),
              startCall('c2', 'capped child'),
              startCall('c3', 'capped child'),
            ],
          }),
          () => ({ text: 'started what I could' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'many children' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    expect(resultOf('many children', 'c1')).toMatchObject({ status: 'started' });
    expect(resultOf('many children', 'c2')).toMatchObject({ status: 'started' });
    expect(resultOf('many children', 'c3')).toEqual({
      error: {
        code: 'subagents.limit_reached',
        message: expect.any(String),
        details: { limit: CHILDREN, scope: 'parent_run' },
      },
    });
    expect(await childRuns(ctx, parent.run_id)).toHaveLength(CHILDREN);
    held.open();
  });

  it(`answers tool calls past ${PER_TURN} in one turn with a tool error, unexecuted, each bound to its call`, async () => {
    const user = await ctx.newUser();
    const ids = ['t1', 't2', 't3', 't4', 't5', 't6'];
    scripts.on(
      'too many calls',
      parentTurns([
        () => ({ toolCalls: ids.map((id) => call(id, 'ls', { path: '/home/gem/user-data/' })) }),
        () => ({ text: 'fine' }),
      ]),
    );
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'too many calls' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const last = requestsFor(fake, 'too many calls').at(-1)!;
    const answered = last.body.messages.filter((m) => m.role === 'tool').map((m) => m.tool_call_id);
    expect(answered).toEqual(ids);
    for (const id of ids.slice(PER_TURN))
      expect(resultOf('too many calls', id)).toEqual({
        error: {
          code: 'runs.too_many_tool_calls',
          message: expect.any(String),
          details: { limit: PER_TURN },
        },
      });
    for (const id of ids.slice(0, PER_TURN)) expect(resultOf('too many calls', id).error).toBeUndefined();
    await ctx.app.get(ToolCallAuditWriter).flush();
    const executed = await ctx.dataSource.query<{ tool_call_id: string }[]>(
      `SELECT tool_call_id FROM tool_calls WHERE run_id = $1 ORDER BY tool_call_id`,
      [run.run_id],
    );
    expect(executed.map((row) => row.tool_call_id)).toEqual(ids.slice(0, PER_TURN));
    const stored = await ctx.dataSource.query<{ tool_call_id: string }[]>(
      `SELECT tool_call_id FROM messages WHERE run_id = $1 AND role = 'tool' ORDER BY position`,
      [run.run_id],
    );
    expect(stored.map((row) => row.tool_call_id)).toEqual(ids);
  });

  it(`refuses a new run past ${PER_USER} active runs of the user with 429 and Retry-After; other users go on`, async () => {
    const user = await ctx.newUser();
    const other = await ctx.newUser();
    const busy = await occupy(user, PER_USER, 'occupy user');
    expect(await activeRunsOf(user)).toBe(PER_USER);

    const thread = await newThread(ctx, user);
    const refused = await ctx.http
      .post(`/api/threads/${thread}/runs`)
      .set(auth(user))
      .send({ input: 'one more' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'runs.too_many_active_runs', details: { limit: PER_USER } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const call = await ctx.http
      .post('/api/agent-calls')
      .set(auth(user))
      .send({ agent_slug: 'default-chatbot', input: 'one more', thread_id: thread });
    expect(call.status).toBe(429);
    expect(call.body.code).toBe('runs.too_many_active_runs');
    expect(await activeRunsOf(user)).toBe(PER_USER);

    // The cap is per user: another user starts runs meanwhile.
    scripts.on('someone else', () => ({ text: 'ok' }));
    const theirs = await startRun(ctx, other, await newThread(ctx, other), { input: 'someone else' });
    expect(await waitForStatus(ctx, theirs.run_id, isTerminal)).toBe('completed');

    await busy.release();
    const again = await startRun(ctx, user, thread, { input: 'someone else' });
    expect(await waitForStatus(ctx, again.run_id, isTerminal)).toBe('completed');
  });

  it('refuses a subagent_start that would pass the user’s active runs with a tool error', async () => {
    const user = await ctx.newUser();
    const busy = await occupy(user, PER_USER - 1, 'occupy before parent');
    scripts
      .on('child past the user cap', () => ({ text: 'never' }))
      .on(
        'parent at the user cap',
        parentTurns([
          () => ({ toolCalls: [startCall('u1', 'child past the user cap')] }),
          () => ({ text: 'ok' }),
        ]),
      );
    const parent = await startRun(ctx, user, await newThread(ctx, user), { input: 'parent at the user cap' });
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    expect(resultOf('parent at the user cap', 'u1')).toMatchObject({
      error: { code: 'runs.too_many_active_runs', details: { limit: PER_USER } },
    });
    expect(await childRuns(ctx, parent.run_id)).toEqual([]);
    await busy.release();
  });
});
