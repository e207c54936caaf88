import { existsSync, readFileSync } from 'node:fs';
import {
  auditRows,
  decide,
  runUntilSettled,
  waitingPoint,
  type Policy,
} from '../../support/approval/approval-runs';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { toolAnswer } from '../../support/runs/model-requests';
import { storedEvents } from '../../support/runs/run-event-rows';
import { auth, isTerminal, newThread, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import { workdirFile } from '../../support/runs/workdir-files';
import type { TestContext, TestUser } from '../../support/test-app';

const ASK_WRITES: Policy = { default: 'allow', rules: [{ tool: 'write_file', decision: 'ask' }] };

describe('tool approval in runs: ask, approve, reject, edit, deny, remember', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
    other = await ctx.newUser();
  });

  afterAll(() => close());

  // A run a test leaves waiting never takes its last scripted reply: the next test starts clean.
  beforeEach(() => fake.clearScript());

  async function threadWith(approval: Policy): Promise<{ threadId: string; slug: string }> {
    const { slug } = await ctx.newAgent(user, { config: { tools: ['write_file', 'ls'], approval } });
    return { threadId: await newThread(ctx, user, slug), slug };
  }

  /** A turn with a write that asks and an `ls` that does not, then the model's last word. */
  function scriptWriteAndList(content = 'hello') {
    fake.script(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: 'note.md', content } },
          { id: 'call_l', name: 'ls', args: { path: '.' } },
        ],
      },
      { text: 'Done.' },
    );
  }

  it('parks before any call of the turn runs, then runs them in order once approved', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('waiting');
    const file = workdirFile(ctx, user.id, threadId, 'note.md');
    expect(existsSync(file)).toBe(false);

    const point = await waitingPoint(ctx, user, runId);
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({
      run_id: runId,
      kind: 'approval',
      tool_call_id: 'call_w',
      questions: [],
      status: 'open',
    });
    expect(point.body.approvals).toEqual([
      {
        tool_call_id: 'call_w',
        name: 'write_file',
        args: { file_path: 'note.md', content: 'hello' },
        source: 'builtin',
        reason: expect.stringContaining('rule 1'),
        args_schema: expect.objectContaining({ type: 'object' }),
      },
    ]);
    const before = await storedEvents(ctx, runId);
    expect(before.filter((e) => e.type === 'tool_result')).toEqual([]);
    const waiting = before.find((e) => e.type === 'waiting')!;
    expect(waiting.payload).toEqual({
      waiting_point_id: point.body.id,
      kind: 'approval',
      tool_call_id: 'call_w',
      approvals: [
        {
          tool_call_id: 'call_w',
          name: 'write_file',
          args: { file_path: 'note.md', content: 'hello' },
          source: 'builtin',
          reason: expect.any(String),
        },
      ],
    });
    const state = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(state.body.waiting_point).toMatchObject({ id: point.body.id, kind: 'approval', status: 'open' });

    const answered = await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      status: 'answered',
      decisions: { call_w: { decision: 'approve' } },
    });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');

    expect(readFileSync(file, 'utf8')).toBe('hello');
    const events = await storedEvents(ctx, runId);
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.payload.tool_call_id)).toEqual([
      'call_w',
      'call_l',
    ]);
    expect(events.filter((e) => e.type === 'status').map((e) => e.payload.status)).toEqual([
      'queued',
      'running',
      'waiting',
      'queued',
      'running',
      'completed',
    ]);
    const rows = await auditRows(ctx, runId);
    expect(rows).toEqual({
      call_w: expect.objectContaining({
        tool_call_id: 'call_w',
        outcome: 'ok',
        decision: 'approve',
        decided_by: user.id,
        remembered: false,
      }),
      call_l: expect.objectContaining({ outcome: 'ok', decision: 'allow', decided_by: 'default' }),
    });
  });

  it('a rejected call never runs: the model gets tools.rejected_by_user with the message', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const { runId } = await runUntilSettled(ctx, user, threadId);
    const res = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'reject', message: 'Not in this folder.' } },
    });
    expect(res.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_w');
    expect(JSON.parse(String(answer?.content))).toEqual({
      error: {
        code: 'tools.rejected_by_user',
        message: 'Not in this folder.',
        details: { tool: 'write_file' },
      },
    });
    const rows = await auditRows(ctx, runId);
    expect(rows.call_w).toMatchObject({
      tool_call_id: 'call_w',
      outcome: 'refused',
      error_code: 'tools.rejected_by_user',
      decision: 'reject',
      decided_by: user.id,
    });
    // `ls` ran (the listing of a workdir nothing was written to is an error of its own).
    expect(rows.call_l).toMatchObject({ decision: 'allow', decided_by: 'default' });
    expect(rows.call_l.outcome).not.toBe('refused');
  });

  it('an edited call runs with the edited arguments only; bad edits are refused with 400', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    scriptWriteAndList('from the model');
    const { runId } = await runUntilSettled(ctx, user, threadId);

    const missingArgs = await decide(ctx, user, runId, { decisions: { call_w: { decision: 'edit' } } });
    expect(missingArgs.status).toBe(400);
    expect(missingArgs.body.details.fields).toEqual([
      { field: 'decisions.call_w', messages: [expect.stringContaining('args')] },
    ]);
    const badArgs = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'edit', args: { file_path: 'note.md', content: 7 } } },
    });
    expect(badArgs.status).toBe(400);
    expect(badArgs.body.details.fields[0].messages[0]).toContain('args.content');
    expect((await waitingPoint(ctx, user, runId)).body.status).toBe('open');

    const res = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'edit', args: { file_path: 'edited.md', content: 'from the user' } } },
    });
    expect(res.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);
    expect(readFileSync(workdirFile(ctx, user.id, threadId, 'edited.md'), 'utf8')).toBe('from the user');
    expect((await auditRows(ctx, runId)).call_w).toMatchObject({ decision: 'edit', outcome: 'ok' });
  });

  it('refuses decisions that are incomplete, unknown, malformed or misplaced, and keeps the point open', async () => {
    const { threadId } = await threadWith({ default: 'ask' });
    scriptWriteAndList();
    const { runId } = await runUntilSettled(ctx, user, threadId);
    const point = await waitingPoint(ctx, user, runId);
    expect(point.body.approvals.map((a: { tool_call_id: string }) => a.tool_call_id)).toEqual([
      'call_w',
      'call_l',
    ]);

    const cases: [unknown, string][] = [
      [{ call_w: { decision: 'approve' } }, 'decisions.call_l'],
      [
        { call_w: { decision: 'approve' }, call_l: { decision: 'approve' }, call_x: { decision: 'approve' } },
        'decisions.call_x',
      ],
      [{ call_w: { decision: 'maybe' }, call_l: { decision: 'approve' } }, 'decisions.call_w'],
      [{ call_w: 'approve', call_l: { decision: 'approve' } }, 'decisions.call_w'],
      [
        { call_w: { decision: 'approve', message: 'hi' }, call_l: { decision: 'approve' } },
        'decisions.call_w',
      ],
      [
        { call_w: { decision: 'reject', remember: 'thread' }, call_l: { decision: 'approve' } },
        'decisions.call_w',
      ],
      [
        { call_w: { decision: 'approve', remember: 'forever' }, call_l: { decision: 'approve' } },
        'decisions.call_w',
      ],
      [{ call_w: { decision: 'approve', args: {} }, call_l: { decision: 'approve' } }, 'decisions.call_w'],
      [{ call_w: { decision: 'approve', extra: 1 }, call_l: { decision: 'approve' } }, 'decisions.call_w'],
    ];
    for (const [decisions, field] of cases) {
      const res = await decide(ctx, user, runId, { decisions });
      expect([res.status, res.body.code]).toEqual([400, 'common.validation_failed']);
      expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
    }
    const notObject = await decide(ctx, user, runId, { decisions: ['approve'] });
    expect(notObject.status).toBe(400);
    const asAnswers = await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers: {} });
    expect([asAnswers.status, asAnswers.body.code]).toEqual([409, 'runs.waiting_point_kind_mismatch']);
    expect((await waitingPoint(ctx, user, runId)).body.status).toBe('open');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);

    const ok = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'approve' }, call_l: { decision: 'approve' } },
      request_id: 'decide-1',
    });
    expect(ok.status).toBe(200);
    const replay = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'approve' }, call_l: { decision: 'approve' } },
      request_id: 'decide-1',
    });
    expect(replay.status).toBe(200);
    expect(replay.body.id).toBe(ok.body.id);
    const changed = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'reject' }, call_l: { decision: 'approve' } },
      request_id: 'decide-1',
    });
    expect([changed.status, changed.body.code]).toEqual([409, 'common.request_id_conflict']);
    const again = await decide(ctx, user, runId, {
      decisions: { call_w: { decision: 'approve' }, call_l: { decision: 'approve' } },
    });
    expect([again.status, again.body.code]).toEqual([409, 'runs.already_answered']);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
  });

  it('deny: the call is not executed and the model gets tools.denied_by_policy, without waiting', async () => {
    const { threadId } = await threadWith({
      default: 'allow',
      rules: [{ tool: 'write_*', decision: 'deny' }],
    });
    scriptWriteAndList();
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('completed');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_w');
    expect(JSON.parse(String(answer?.content)).error.code).toBe('tools.denied_by_policy');
    expect((await auditRows(ctx, runId)).call_w).toMatchObject({
      outcome: 'refused',
      decision: 'deny',
      decided_by: 'rule:1',
    });
    const point = await waitingPoint(ctx, user, runId);
    expect(point.status).toBe(404);
  });

  it('remember: "thread" allows the tool for the rest of the thread, not in another thread', async () => {
    const { threadId, slug } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const first = await runUntilSettled(ctx, user, threadId);
    await decide(ctx, user, first.runId, {
      decisions: { call_w: { decision: 'approve', remember: 'thread' } },
    });
    expect(await waitForStatus(ctx, first.runId, isTerminal)).toBe('completed');
    expect((await auditRows(ctx, first.runId)).call_w).toMatchObject({
      decision: 'approve',
      remembered: true,
    });

    scriptWriteAndList('second');
    const second = await runUntilSettled(ctx, user, threadId);
    expect(second.status).toBe('completed');
    expect(readFileSync(workdirFile(ctx, user.id, threadId, 'note.md'), 'utf8')).toBe('second');
    expect((await auditRows(ctx, second.runId)).call_w).toMatchObject({
      decision: 'allow',
      decided_by: 'thread',
    });

    const otherThread = await newThread(ctx, user, slug);
    scriptWriteAndList();
    const elsewhere = await runUntilSettled(ctx, user, otherThread);
    expect(elsewhere.status).toBe('waiting');
    await ctx.http.post(`/api/runs/${elsewhere.runId}/cancel`).set(auth(user));

    const remembered = () =>
      ctx.dataSource.query<{ tool: string }[]>(
        `SELECT tool FROM thread_tool_approvals WHERE thread_id = $1`,
        [threadId],
      );
    expect(await remembered()).toEqual([{ tool: 'write_file' }]);
    expect((await ctx.http.delete(`/api/threads/${threadId}`).set(auth(user))).status).toBe(204);
    expect(await remembered()).toEqual([]);
  });

  it('a turn that needs approval and asks questions waits twice, in that order, and runs the write once', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    fake.script(
      {
        toolCalls: [
          { id: 'call_w', name: 'write_file', args: { file_path: 'both.md', content: 'once' } },
          { id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Title?' }] } },
        ],
      },
      { text: 'Done.' },
    );
    const { runId, status } = await runUntilSettled(ctx, user, threadId);
    expect(status).toBe('waiting');
    expect((await waitingPoint(ctx, user, runId)).body.kind).toBe('approval');
    await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    const asked = await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s));
    expect(asked).toBe('waiting');
    const questions = await waitingPoint(ctx, user, runId);
    expect(questions.body).toMatchObject({ kind: 'questions', status: 'open', tool_call_id: 'call_q' });
    expect(readFileSync(workdirFile(ctx, user.id, threadId, 'both.md'), 'utf8')).toBe('once');
    const answered = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'Notes' } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const rows = await auditRows(ctx, runId);
    expect(rows.call_w).toMatchObject({ decision: 'approve', outcome: 'ok' });
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, 'call_q');
    expect(JSON.parse(String(answer?.content)).answers).toEqual({ 'q-1': 'Notes' });
    const results = (await storedEvents(ctx, runId)).filter((e) => e.type === 'tool_result');
    expect(results.map((e) => e.payload.tool_call_id)).toEqual(['call_w', 'call_q']);
  });

  it('a policy changed to deny while the run waits refuses the approved call when it resumes', async () => {
    const { threadId, slug } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const { runId } = await runUntilSettled(ctx, user, threadId);
    const patched = await ctx.http
      .patch(`/api/agents/${slug}`)
      .set(auth(user))
      .send({
        config: { approval: { default: 'allow', rules: [{ tool: 'write_file', decision: 'deny' }] } },
      });
    expect(patched.status).toBe(200);
    await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);
    expect((await auditRows(ctx, runId)).call_w).toMatchObject({
      error_code: 'tools.denied_by_policy',
      decision: 'deny',
    });
  });

  it('another user can neither read nor answer the point', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const { runId } = await runUntilSettled(ctx, user, threadId);
    const read = await waitingPoint(ctx, other, runId);
    expect([read.status, read.body.code]).toEqual([404, 'runs.not_found']);
    const answer = await decide(ctx, other, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect([answer.status, answer.body.code]).toEqual([404, 'runs.not_found']);
    expect((await waitingPoint(ctx, user, runId)).body.status).toBe('open');
    await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user));
  });

  it('cancelling the waiting run cancels its point; a later approval is refused', async () => {
    const { threadId } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const { runId } = await runUntilSettled(ctx, user, threadId);
    const cancelled = await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user));
    expect([cancelled.status, cancelled.body]).toEqual([
      200,
      expect.objectContaining({ status: 'cancelled' }),
    ]);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('cancelled');
    expect((await waitingPoint(ctx, user, runId)).body.status).toBe('cancelled');
    const late = await decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } });
    expect([late.status, late.body.code]).toEqual([409, 'runs.not_waiting']);
    expect(existsSync(workdirFile(ctx, user.id, threadId, 'note.md'))).toBe(false);
  });

  it('approve racing cancel: one consistent ending, never a 500', async () => {
    for (let round = 0; round < 5; round++) {
      fake.clearScript();
      const { threadId } = await threadWith(ASK_WRITES);
      scriptWriteAndList();
      const { runId } = await runUntilSettled(ctx, user, threadId);
      const [approved, cancelled] = await Promise.all([
        decide(ctx, user, runId, { decisions: { call_w: { decision: 'approve' } } }),
        ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user)),
      ]);
      expect([200, 409]).toContain(approved.status);
      expect([200, 409]).toContain(cancelled.status);
      const status = await waitForStatus(ctx, runId, isTerminal);
      const written = existsSync(workdirFile(ctx, user.id, threadId, 'note.md'));
      const point = (await waitingPoint(ctx, user, runId)).body;
      if (approved.status === 409) {
        expect(status).toBe('cancelled');
        expect(point.status).toBe('cancelled');
        expect(written).toBe(false);
      } else {
        expect(point.status).toBe('answered');
        expect(['completed', 'cancelled']).toContain(status);
      }
      const events = await storedEvents(ctx, runId);
      expect(events.filter((e) => e.type === 'done')).toHaveLength(1);
      expect(events.at(-1)!.type).toBe('done');
    }
  });

  it('agent-calls with wait: true return the waiting run', async () => {
    const { slug } = await threadWith(ASK_WRITES);
    scriptWriteAndList();
    const res = await ctx.http
      .post('/api/agent-calls')
      .set(auth(user))
      .send({ agent_slug: slug, input: 'write it', wait: true });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'waiting' });
    expect(res.body.output).toBeUndefined();
    const point = await waitingPoint(ctx, user, res.body.run_id);
    expect(point.body).toMatchObject({ kind: 'approval', status: 'open' });
    await ctx.http.post(`/api/runs/${res.body.run_id}/cancel`).set(auth(user));
  });
});
