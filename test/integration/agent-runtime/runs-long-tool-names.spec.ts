import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { marksOfRun } from '../improvement-marks/mark-rows';
import { toolAnswer } from '../../support/runs/model-requests';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const LONG_NAME = `tool_${'n'.repeat(295)}`;
const LONG_ID = `call_${'i'.repeat(295)}`;

/** Issue 25 item 26: model-sent tool names and tool call ids longer than 200 characters. */
describe('runs: long model-sent tool names and tool call ids', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });
  afterAll(() => close());

  it('answers an unknown 300-character tool with a tool error and stores every row whole', async () => {
    fake.script({ toolCalls: [{ id: LONG_ID, name: LONG_NAME, args: {} }] }, { text: 'recovered' });
    const threadId = await newThread(ctx, user);
    const run = await startRun(ctx, user, threadId, { input: 'call the long tool' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');

    const rows = await ctx.dataSource.query<
      {
        role: string;
        name: string | null;
        tool_call_id: string | null;
        content: string;
        tool_calls: unknown;
      }[]
    >(
      `SELECT role, name, tool_call_id, content, tool_calls FROM messages WHERE run_id = $1 ORDER BY position`,
      [run.run_id],
    );
    expect(rows.map((row) => row.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(rows[1].tool_calls).toEqual([{ id: LONG_ID, name: LONG_NAME, args: {} }]);
    expect(rows[2]).toMatchObject({ name: LONG_NAME, tool_call_id: LONG_ID });
    expect(JSON.parse(rows[2].content)).toMatchObject({ error: { code: 'tools.not_executable' } });
    expect(rows[3].content).toBe('recovered');

    // The model saw the error bound to its call, under the id it sent.
    const answer = toolAnswer(fake.requests.at(-1)!.body.messages, LONG_ID);
    expect(JSON.parse(String(answer?.content))).toMatchObject({ error: { code: 'tools.not_executable' } });
    const messages = await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user));
    expect(messages.body.items[2]).toMatchObject({ role: 'tool', name: LONG_NAME, tool_call_id: LONG_ID });
  });

  it('parks on an ask_user_question call whose id has 300 characters and resumes on the answer', async () => {
    fake.script(
      {
        toolCalls: [
          { id: LONG_ID, name: 'ask_user_question', args: { questions: [{ question: 'Which?' }] } },
        ],
      },
      { text: 'thanks' },
    );
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'ask me' });
    expect(await waitForStatus(ctx, run.run_id, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const point = await ctx.http.get(`/api/runs/${run.run_id}/waiting-point`).set(auth(user));
    expect(point.body).toMatchObject({ tool_call_id: LONG_ID, status: 'open' });
    const answered = await ctx.http
      .post(`/api/runs/${run.run_id}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'this one' } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
  });

  it('saves an improvement mark whose tool call id has 300 characters', async () => {
    fake.script(
      { toolCalls: [{ id: LONG_ID, name: 'mark_for_improvement', args: { reason: 'Use ISO dates.' } }] },
      { text: 'noted' },
    );
    const run = await startRun(ctx, user, await newThread(ctx, user), { input: 'remember this' });
    expect(await waitForStatus(ctx, run.run_id, isTerminal)).toBe('completed');
    const marks = await marksOfRun(ctx, run.run_id);
    expect(marks).toHaveLength(1);
    expect(marks[0]).toMatchObject({ tool_call_id: LONG_ID, reason: 'Use ISO dates.' });
  });
});
