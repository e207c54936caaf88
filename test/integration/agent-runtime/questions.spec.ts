import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import type { TestContext, TestUser } from '../../support/test-app';

const QUESTIONS = [
  { question: '  Who reads it?  ' },
  {
    question_id: 'format',
    question: 'Pick a format',
    options: [
      { label: 'Markdown', value: 'markdown' },
      { label: 'PDF', value: 'pdf' },
    ],
    allow_other: false,
  },
  {
    question: 'Which sections?',
    options: [
      { label: 'Intro', value: 'intro' },
      { label: 'Body', value: 'body' },
    ],
    multi_select: true,
  },
];

describe('ask_user_question: a waiting point, answers, and the same run resuming', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  async function waitingRun() {
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [{ id: 'call_ask', name: 'ask_user_question', args: { questions: QUESTIONS } }],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'Write the report' });
    await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s));
    return { threadId, runId };
  }

  it('waits with normalized questions, takes the answers, and resumes the same run, whose model sees them', async () => {
    const { threadId, runId } = await waitingRun();
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({
      run_id: runId,
      kind: 'questions',
      tool_call_id: 'call_ask',
      status: 'open',
    });
    expect(point.body.questions).toEqual([
      {
        question_id: 'q-1',
        question: 'Who reads it?',
        multi_select: false,
        allow_other: true,
        tool_call_id: 'call_ask',
      },
      {
        question_id: 'format',
        question: 'Pick a format',
        options: [
          { label: 'Markdown', value: 'markdown' },
          { label: 'PDF', value: 'pdf' },
        ],
        multi_select: false,
        allow_other: false,
        tool_call_id: 'call_ask',
      },
      {
        question_id: 'q-3',
        question: 'Which sections?',
        options: [
          { label: 'Intro', value: 'intro' },
          { label: 'Body', value: 'body' },
        ],
        multi_select: true,
        allow_other: true,
        tool_call_id: 'call_ask',
      },
    ]);
    const state = await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user));
    expect(state.body.active_run).toMatchObject({ id: runId, status: 'waiting' });
    expect(state.body.waiting_point).toMatchObject({ id: point.body.id, kind: 'questions', status: 'open' });
    const busy = await ctx.http
      .post(`/api/threads/${threadId}/runs`)
      .set(auth(user))
      .send({ input: 'another' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('runs.waiting_for_answer');

    fake.script({ text: 'Thanks, writing it.' });
    const answers = { 'q-1': ' Engineers ', format: 'pdf', 'q-3': ['intro', 'appendix'] };
    const answered = await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({
      status: 'answered',
      answers: { 'q-1': 'Engineers', format: 'pdf', 'q-3': ['intro', 'appendix'] },
    });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');

    const toolMessage = fake.requests.at(-1)!.body.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.tool_call_id).toBe('call_ask');
    const content = JSON.parse(String(toolMessage?.content)) as { questions: unknown[]; answers: unknown };
    expect(content.answers).toEqual({ 'q-1': 'Engineers', format: 'pdf', 'q-3': ['intro', 'appendix'] });
    expect(content.questions).toHaveLength(3);

    const stream = await readSse(
      await listeningUrl(ctx.app.getHttpServer()),
      `/api/runs/${runId}/events`,
      auth(user),
    );
    const statuses = stream.frames.filter((f) => f.event === 'status').map((f) => f.data.payload.status);
    expect(statuses).toEqual(['queued', 'running', 'waiting', 'queued', 'running', 'completed']);
    const waiting = stream.frames.find((f) => f.event === 'waiting');
    expect(waiting?.data.payload).toEqual({
      waiting_point_id: point.body.id,
      kind: 'questions',
      tool_call_id: 'call_ask',
      questions: point.body.questions,
    });
    const rows = await ctx.dataSource.query<{ status: string; answered_by: string }[]>(
      `SELECT status, answered_by FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(rows).toEqual([{ status: 'answered', answered_by: user.id }]);
  });

  it('refuses bad answers with 400 and keeps the point open', async () => {
    const { runId } = await waitingRun();
    const bad = [
      { 'q-1': 'x', format: 'pdf' },
      { 'q-1': 'x', format: 'pdf', 'q-3': ['intro'], extra: 'y' },
      { 'q-1': 'x', format: 'word', 'q-3': ['intro'] },
      { 'q-1': 'x', format: 'pdf', 'q-3': [] },
      { 'q-1': 'x', format: 'pdf', 'q-3': 'intro' },
      { 'q-1': ['x'], format: 'pdf', 'q-3': ['intro'] },
      { 'q-1': '   ', format: 'pdf', 'q-3': ['intro'] },
    ];
    for (const answers of bad) {
      const res = await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers });
      expect({ answers, status: res.status, code: res.body.code }).toEqual({
        answers,
        status: 400,
        code: 'common.validation_failed',
      });
    }
    const [row] = await ctx.dataSource.query<{ status: string }[]>(
      `SELECT status FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(row.status).toBe('open');
    await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user)).expect(200);
  });

  it('accepts exactly one of two concurrent answers; a later answer without the request_id is 409', async () => {
    const { runId } = await waitingRun();
    fake.script({ text: 'done' });
    const send = (format: string) =>
      ctx.http
        .post(`/api/runs/${runId}/answers`)
        .set(auth(user))
        .send({ answers: { 'q-1': 'a', format, 'q-3': ['body'] } });
    const [a, b] = await Promise.all([send('pdf'), send('markdown')]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect(loser.body.code).toBe('runs.already_answered');
    const winner = a.status === 200 ? a : b;
    // The same answers again, without a request_id: a second answer, not a replay.
    const again = await send(winner.body.answers.format as string);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('runs.already_answered');
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
  });

  it('a replay under the same request_id returns the first result; other answers under it are 409', async () => {
    const { runId } = await waitingRun();
    fake.script({ text: 'done' });
    const answers = { 'q-1': 'a', format: 'pdf', 'q-3': ['body'] };
    const send = (body: Record<string, unknown>) =>
      ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send(body);
    const first = await send({ answers, request_id: 'answer-1' });
    expect(first.status).toBe(200);

    const replay = await send({ answers: { ...answers, 'q-1': ' a ' }, request_id: 'answer-1' });
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);

    const conflict = await send({ answers: { ...answers, format: 'markdown' }, request_id: 'answer-1' });
    expect(conflict.status).toBe(409);
    expect(conflict.body).toMatchObject({
      code: 'common.request_id_conflict',
      details: { request_id: 'answer-1' },
    });
    for (const body of [{ answers }, { answers, request_id: 'answer-2' }]) {
      const refused = await send(body);
      expect({ body, status: refused.status, code: refused.body.code }).toEqual({
        body,
        status: 409,
        code: 'runs.already_answered',
      });
    }

    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const rows = await ctx.dataSource.query<{ answers: unknown; answer_request_id: string }[]>(
      `SELECT answers, answer_request_id FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(rows).toEqual([{ answers, answer_request_id: 'answer-1' }]);
    // Resumed once: one `queued` after the waiting point.
    const statuses = await ctx.dataSource.query<{ status: string }[]>(
      `SELECT payload->>'status' AS status FROM run_events WHERE run_id = $1 AND type = 'status' ORDER BY seq`,
      [runId],
    );
    expect(statuses.map((r) => r.status)).toEqual([
      'queued',
      'running',
      'waiting',
      'queued',
      'running',
      'completed',
    ]);
  });

  it('cancelling a waiting run cancels its waiting point; answers are then refused', async () => {
    const { runId } = await waitingRun();
    const cancelled = await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user));
    expect(cancelled.body.status).toBe('cancelled');
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.body.status).toBe('cancelled');
    const late = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'a', format: 'pdf', 'q-3': ['body'] } });
    expect(late.status).toBe(409);
  });

  it('another user gets 404 for the waiting point and the answers', async () => {
    const { runId } = await waitingRun();
    const other = await ctx.newUser();
    expect((await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(other))).status).toBe(404);
    const res = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(other))
      .send({ answers: { 'q-1': 'a', format: 'pdf', 'q-3': ['body'] } });
    expect(res.status).toBe(404);
    const [row] = await ctx.dataSource.query<{ status: string }[]>(
      `SELECT status FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(row.status).toBe('open');
    await ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user)).expect(200);
  });
});
