import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';

const REFUSED: [string, unknown][] = [
  ['a JSON string instead of an array', { questions: JSON.stringify([{ question: 'Who?' }]) }],
  ['a wrapper object', { questions: { question: 'Who?' } }],
  ['an items wrapper', { items: [{ question: 'Who?' }] }],
  ['the alias text', { questions: [{ text: 'Who?' }] }],
  ['the alias title', { questions: [{ title: 'Who?' }] }],
  ['the alias choices', { questions: [{ question: 'Pick', choices: [{ label: 'A', value: 'a' }] }] }],
  ['the alias multiSelect', { questions: [{ question: 'Pick', multiSelect: true }] }],
  ['the alias allowOther', { questions: [{ question: 'Pick', allowOther: false }] }],
  ['the alias id', { questions: [{ id: 'x', question: 'Pick' }] }],
  ['string options', { questions: [{ question: 'Pick', options: ['A', 'B'] }] }],
  ['a string boolean', { questions: [{ question: 'Pick', multi_select: 'true' }] }],
  ['six questions', { questions: Array.from({ length: 6 }, (_, i) => ({ question: `Q${i}` })) }],
  [
    'six options',
    {
      questions: [
        {
          question: 'Pick',
          options: Array.from({ length: 6 }, (_, i) => ({ label: `L${i}`, value: `v${i}` })),
        },
      ],
    },
  ],
  ['an empty label', { questions: [{ question: 'Pick', options: [{ label: '  ', value: 'a' }] }] }],
  ['an empty question', { questions: [{ question: '   ' }] }],
  [
    'duplicate ids',
    {
      questions: [
        { question_id: 'a', question: 'A' },
        { question_id: 'a', question: 'B' },
      ],
    },
  ],
  [
    'an explicit id of another position',
    { questions: [{ question: 'A' }, { question_id: 'q-1', question: 'B' }] },
  ],
];

describe('ask_user_question refuses malformed arguments as a tool error, without a waiting point', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  it.each(REFUSED)('%s', async (_label, args) => {
    const threadId = await newThread(ctx, user);
    fake.script(
      { toolCalls: [{ id: 'call_bad', name: 'ask_user_question', args: args as Record<string, unknown> }] },
      { text: 'ok' },
    );
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask me' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const [{ count }] = await ctx.dataSource.query<{ count: number }[]>(
      `SELECT count(*)::int AS count FROM waiting_points WHERE run_id = $1`,
      [runId],
    );
    expect(count).toBe(0);
    const toolMessage = fake.requests.at(-1)!.body.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(toolMessage?.content))).toMatchObject({
      error: { code: 'tools.invalid_arguments' },
    });
  });
});

describe('a waiting point survives a restart of the API and the worker', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
  });

  afterAll(() => close());

  it('is answered after the restart and the same run completes', async () => {
    const user = await ctx.newUser();
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [{ id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Name?' }] } }],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask' });
    await waitForStatus(ctx, runId, (s) => s === 'waiting');

    await ctx.restart();

    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    expect(point.body).toMatchObject({
      status: 'open',
      questions: [{ question_id: 'q-1', question: 'Name?' }],
    });
    fake.script({ text: 'Hello Ada' });
    await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'Ada' } })
      .expect(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const toolMessage = fake.requests.at(-1)!.body.messages.find((m) => m.role === 'tool');
    expect(JSON.parse(String(toolMessage?.content))).toMatchObject({ answers: { 'q-1': 'Ada' } });
  });
});
