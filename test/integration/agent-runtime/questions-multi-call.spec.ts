import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { listeningUrl, readSse } from '../../support/runs/sse-client';
import type { TestContext, TestUser } from '../../support/test-app';

const FIRST = [
  { question: 'Who reads it?' },
  {
    question_id: 'format',
    question: 'Pick a format',
    options: [
      { label: 'Markdown', value: 'markdown' },
      { label: 'PDF', value: 'pdf' },
    ],
    allow_other: false,
  },
];
/** Its generated id `q-1` and its explicit `format` collide with the first call's. */
const SECOND = [{ question: 'How long?' }, { question_id: 'format', question: 'Which paper size?' }];

describe('ask_user_question: several calls in one assistant message', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  const toolMessages = (request: (typeof fake.requests)[number]) =>
    request.body.messages
      .filter((m) => m.role === 'tool')
      .map((m) => ({ tool_call_id: m.tool_call_id, content: JSON.parse(String(m.content)) as unknown }));

  it('asks every question of the turn through one waiting point; each call gets its own answers', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [
        { id: 'call_a', name: 'ask_user_question', args: { questions: FIRST } },
        { id: 'call_b', name: 'ask_user_question', args: { questions: SECOND } },
      ],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'Write the report' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');

    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.status).toBe(200);
    expect(point.body).toMatchObject({ tool_call_id: 'call_a', status: 'open' });
    expect(point.body.questions).toEqual([
      {
        question_id: 'q-1',
        question: 'Who reads it?',
        multi_select: false,
        allow_other: true,
        tool_call_id: 'call_a',
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
        tool_call_id: 'call_a',
      },
      {
        question_id: 'q-1@2',
        question: 'How long?',
        multi_select: false,
        allow_other: true,
        tool_call_id: 'call_b',
      },
      {
        question_id: 'format@2',
        question: 'Which paper size?',
        multi_select: false,
        allow_other: true,
        tool_call_id: 'call_b',
      },
    ]);

    const requestsBefore = fake.requests.length;
    fake.script({ text: 'Thanks, writing it.' });
    const answers = { 'q-1': 'Engineers', format: 'pdf', 'q-1@2': 'Two pages', 'format@2': 'A4' };
    const answered = await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: 'answered', answers });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');

    // The model is called again, once, with one result per tool call, each with its own answers.
    expect(fake.requests).toHaveLength(requestsBefore + 1);
    expect(toolMessages(fake.requests.at(-1)!)).toEqual([
      {
        tool_call_id: 'call_a',
        content: {
          questions: [
            { question_id: 'q-1', question: 'Who reads it?', multi_select: false, allow_other: true },
            expect.objectContaining({ question_id: 'format' }),
          ],
          answers: { 'q-1': 'Engineers', format: 'pdf' },
        },
      },
      {
        tool_call_id: 'call_b',
        content: {
          questions: [
            { question_id: 'q-1', question: 'How long?', multi_select: false, allow_other: true },
            { question_id: 'format', question: 'Which paper size?', multi_select: false, allow_other: true },
          ],
          answers: { 'q-1': 'Two pages', format: 'A4' },
        },
      },
    ]);

    const stream = await readSse(
      await listeningUrl(ctx.app.getHttpServer()),
      `/api/runs/${runId}/events`,
      auth(user),
    );
    const statuses = stream.frames.filter((f) => f.event === 'status').map((f) => f.data.payload.status);
    expect(statuses).toEqual(['queued', 'running', 'waiting', 'queued', 'running', 'completed']);
    expect(stream.frames.filter((f) => f.event === 'waiting')).toHaveLength(1);
    const results = stream.frames.filter((f) => f.event === 'tool_result').map((f) => f.data.payload);
    expect(results.map((r) => [r.tool_call_id, r.is_error])).toEqual([
      ['call_a', false],
      ['call_b', false],
    ]);
    const rows = await ctx.dataSource.query<{ tool_call_id: string; status: string }[]>(
      `SELECT tool_call_id, status FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(rows).toEqual([{ tool_call_id: 'call_a', status: 'answered' }]);
    const stored = await ctx.dataSource.query<{ tool_call_id: string; content: string }[]>(
      `SELECT tool_call_id, content FROM messages WHERE run_id = $1 AND role = 'tool' ORDER BY created_at`,
      [runId],
    );
    expect(
      stored.map((m) => [m.tool_call_id, (JSON.parse(m.content) as { answers: unknown }).answers]),
    ).toEqual([
      ['call_a', { 'q-1': 'Engineers', format: 'pdf' }],
      ['call_b', { 'q-1': 'Two pages', format: 'A4' }],
    ]);
  });

  it('an invalid call among them gets its own tool error; the valid ones wait together', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [
        { id: 'call_bad', name: 'ask_user_question', args: { questions: [] } },
        { id: 'call_x', name: 'ask_user_question', args: { questions: [{ question: 'Color?' }] } },
        { id: 'call_y', name: 'ask_user_question', args: { questions: [{ question: 'Size?' }] } },
      ],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'Paint it' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.body.tool_call_id).toBe('call_x');
    expect(point.body.questions.map((q: { question_id: string; tool_call_id: string }) => q)).toEqual([
      expect.objectContaining({ question_id: 'q-1', tool_call_id: 'call_x' }),
      expect.objectContaining({ question_id: 'q-1@3', tool_call_id: 'call_y' }),
    ]);

    fake.script({ text: 'Painted.' });
    const answers = { 'q-1': 'red', 'q-1@3': 'large' };
    const answered = await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const shown = toolMessages(fake.requests.at(-1)!);
    expect(shown.map((m) => m.tool_call_id)).toEqual(['call_bad', 'call_x', 'call_y']);
    expect(shown[0].content).toMatchObject({ error: { code: 'tools.invalid_arguments' } });
    expect(shown[1].content).toMatchObject({ answers: { 'q-1': 'red' } });
    expect(shown[2].content).toMatchObject({ answers: { 'q-1': 'large' } });
  });
  it('other tools of the turn run once each: those before the questions before waiting, the rest after', async () => {
    const threadId = await newThread(ctx, user);
    const write = (id: string, file: string) => ({
      id,
      name: 'write_file',
      args: { file_path: file, content: id },
    });
    fake.script({
      toolCalls: [
        write('call_w1', 'before.md'),
        { id: 'call_a', name: 'ask_user_question', args: { questions: [{ question: 'Title?' }] } },
        write('call_w2', 'between.md'),
        { id: 'call_b', name: 'ask_user_question', args: { questions: [{ question: 'Author?' }] } },
      ],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'Draft it' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const resultsOf = async () =>
      (
        await ctx.dataSource.query<{ id: string }[]>(
          `SELECT payload->>'tool_call_id' AS id FROM run_events WHERE run_id = $1 AND type = 'tool_result' ORDER BY seq`,
          [runId],
        )
      ).map((row) => row.id);
    expect(await resultsOf()).toEqual(['call_w1']);

    fake.script({ text: 'Drafted.' });
    const answers = { 'q-1': 'Report', 'q-1@2': 'Ann' };
    expect((await ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers })).status).toBe(
      200,
    );
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect(await resultsOf()).toEqual(['call_w1', 'call_a', 'call_w2', 'call_b']);
    const shown = toolMessages(fake.requests.at(-1)!);
    expect(shown.map((m) => m.tool_call_id)).toEqual(['call_w1', 'call_a', 'call_w2', 'call_b']);
    expect(shown[1].content).toMatchObject({ answers: { 'q-1': 'Report' } });
    expect(shown[3].content).toMatchObject({ answers: { 'q-1': 'Ann' } });
  });
});
