import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { ToolCallAuditWriter } from '../../../src/modules/tools/execution/audit/tool-call-audit-writer';
import { startRuntime } from '../../support/runs/runtime-context';
import { offeredTools, toolAnswer } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';
import { marksOfRun } from './mark-rows';

const mark = (id: string, reason: unknown) => ({ id, name: 'mark_for_improvement', args: { reason } });

describe('mark_for_improvement in agent runs (fake model)', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  /** The tool_result events of a run, by tool call, in order. */
  const toolResults = async (runId: string) =>
    (await storedEvents(ctx, runId))
      .filter((e) => e.type === 'tool_result')
      .map((e) => e.payload as { tool_call_id: string; content: string; is_error: boolean });

  it('saves a mark with the run, thread, user and tool call of the runtime, and the run goes on', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      {
        text: 'Noting this.',
        toolCalls: [mark('call_m1', '  The user corrected the date format: use ISO dates.  ')],
      },
      { text: 'Noted; here is the answer with ISO dates.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'No, I said ISO dates!' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const rows = await marksOfRun(ctx, run.run_id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      run_id: run.run_id,
      tool_call_id: 'call_m1',
      agent_slug: 'default-chatbot',
      user_id: user.id,
      thread_id: threadId,
      reason: 'The user corrected the date format: use ISO dates.',
    });
    const expected = JSON.stringify({ id: rows[0].id, run_id: run.run_id, saved: true });
    expect(await toolResults(run.run_id)).toEqual([
      { tool_call_id: 'call_m1', name: 'mark_for_improvement', content: expected, is_error: false },
    ]);
    // The model saw the result bound to its call, and finished the task.
    const shown = fake.requests.at(-1)!.body.messages;
    expect(toolAnswer(shown, 'call_m1')?.content).toBe(expected);
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.body.items.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'Noted; here is the answer with ISO dates.',
    });
    await ctx.app.get(ToolCallAuditWriter).flush(); // audit rows are written in batches
    const audit = await ctx.dataSource.query<{ outcome: string }[]>(
      `SELECT outcome FROM tool_calls WHERE run_id = $1 AND tool_call_id = 'call_m1'`,
      [run.run_id],
    );
    expect(audit).toEqual([{ outcome: 'ok' }]);
  });

  it('offers the tool to the model even when the agent selects no tools at all', async () => {
    const admin = await ctx.newUser({ role: 'admin' });
    const created = await ctx.http
      .post('/api/agents')
      .set(auth(admin))
      .send({ name: 'Bare', slug: 'bare-agent', config: { tools: [] } });
    expect(created.status).toBe(201);
    expect(created.body.config.tools).toEqual([]);
    const threadId = await newThread(ctx, admin, 'bare-agent');
    const before = fake.requests.length;
    fake.script(
      { toolCalls: [mark('call_bare', 'Needed a file tool, none is selected.')] },
      { text: 'Done.' },
    );
    const run = await startRun(ctx, admin, threadId, { input: 'Write a file' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const offered = offeredTools(fake.requests[before]);
    expect(offered).toContain('mark_for_improvement');
    expect(offered).not.toContain('write_file');
    expect(offered).not.toContain('ls');
    const rows = await marksOfRun(ctx, run.run_id);
    expect(rows).toMatchObject([{ agent_slug: 'bare-agent', user_id: admin.id, tool_call_id: 'call_bare' }]);
  });

  it('returns the same id when the same tool call is replayed with the same reason', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [mark('call_same', 'grep timed out on a 2 GB log; split the file first.')] },
      { toolCalls: [mark('call_same', 'grep timed out on a 2 GB log; split the file first.')] },
      { text: 'Done.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'search the log' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const rows = await marksOfRun(ctx, run.run_id);
    expect(rows).toHaveLength(1);
    const results = await toolResults(run.run_id);
    expect(results).toHaveLength(2);
    for (const result of results) {
      expect(result.is_error).toBe(false);
      expect(JSON.parse(result.content)).toEqual({ id: rows[0].id, run_id: run.run_id, saved: true });
    }
  });

  it('answers a replay of the same tool call with another reason with a conflict, keeping the first', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [mark('call_twice', 'First account of the problem.')] },
      { toolCalls: [mark('call_twice', 'A different account.')] },
      { text: 'Carrying on.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'go' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const rows = await marksOfRun(ctx, run.run_id);
    expect(rows.map((r) => r.reason)).toEqual(['First account of the problem.']);
    const [first, second] = await toolResults(run.run_id);
    expect(first.is_error).toBe(false);
    expect(second.is_error).toBe(true);
    expect(JSON.parse(second.content)).toMatchObject({
      error: {
        code: 'improvement_marks.conflict',
        details: { id: rows[0].id, run_id: run.run_id, tool_call_id: 'call_twice' },
      },
    });
  });

  it('refuses an empty or a 4001-character reason as a tool error; nothing is saved and the run completes', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [mark('call_empty', '   '), mark('call_long', 'x'.repeat(4001))] },
      { text: 'Continuing without the mark.' },
    );
    const run = await startRun(ctx, user, threadId, { input: 'go' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    expect(await marksOfRun(ctx, run.run_id)).toEqual([]);
    const results = await toolResults(run.run_id);
    expect(results.map((r) => [r.tool_call_id, r.is_error])).toEqual([
      ['call_empty', true],
      ['call_long', true],
    ]);
    for (const result of results)
      expect(JSON.parse(result.content)).toMatchObject({ error: { code: 'tools.invalid_arguments' } });
    const shown = fake.requests.at(-1)!.body.messages;
    expect(String(toolAnswer(shown, 'call_long')?.content)).toContain('tools.invalid_arguments');
  });

  it('turns a database failure into a tool error and the task goes on', async () => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [mark('call_db', 'The OCR tool failed on a scanned PDF.')] },
      { text: 'Moving on.' },
    );
    await ctx.dataSource.query(`ALTER TABLE improvement_marks RENAME TO improvement_marks_away`);
    let status: string;
    let runId: string;
    try {
      const run = await startRun(ctx, user, threadId, { input: 'parse it' });
      runId = run.run_id;
      status = await waitForStatus(ctx, run.run_id, isTerminal);
    } finally {
      await ctx.dataSource.query(`ALTER TABLE improvement_marks_away RENAME TO improvement_marks`);
    }
    expect(status).toBe('completed');
    expect(await marksOfRun(ctx, runId)).toEqual([]);
    const [result] = await toolResults(runId);
    expect(result.is_error).toBe(true);
    const content = JSON.parse(result.content) as { error: { code: string; message: string } };
    expect(content.error.code).toBe('tools.failed');
    expect(content.error.message).not.toContain('improvement_marks_away');
    expect(fake.requests.at(-1)!.body.messages.at(-1)).toMatchObject({
      role: 'tool',
      tool_call_id: 'call_db',
    });
  });
});
