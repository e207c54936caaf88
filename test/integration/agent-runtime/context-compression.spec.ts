import { readdir, readFile } from 'node:fs/promises';
import { SUMMARY_PROMPT_MARKER } from '../../../src/modules/agent-runtime/context/summarizer';
import type { FakeRouter } from '../../support/fake-openai/fake-openai-server';
import type { RecordedRequest } from '../../support/fake-openai/fake-openai-script';
import { unansweredToolCalls } from '../../support/runs/model-requests';
import { eventually, runRow, storedEvents } from '../../support/runs/run-event-rows';
import { auth, newThread, startRun, waitForStatus, isTerminal } from '../../support/runs/run-helpers';
import { startRuntime, type RuntimeContext } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';
import { workdirFile } from '../../support/runs/workdir-files';

type Body = RecordedRequest['body'];
const text = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));
const isSummaryRequest = (body: Body) =>
  body.messages.some((m) => m.role === 'system' && text(m.content).startsWith(SUMMARY_PROMPT_MARKER));
const mentions = (body: Body, needle: string) => body.messages.some((m) => text(m.content).includes(needle));

/** Only the thread's first user message says it (the model's answers name the code word otherwise). */
const FIRST_MESSAGE = 'Remember this: the code word is PELICAN.';

/** About 1,800 characters (600 estimated tokens) of a user's turn. */
const filler = (turn: number) => `Turn ${turn} details: ${'lorem ipsum dolor sit amet '.repeat(66)}`;

/**
 * The model: a summary request is answered with a summary that keeps the code word when the
 * transcript has it; a user's message is answered with one tool call; a tool result with the code
 * word as the model can see it (in the summary, in the original message, or not at all).
 */
function modelRouter(summary: (body: Body) => ReturnType<FakeRouter>): FakeRouter {
  let calls = 0;
  return (body) => {
    if (isSummaryRequest(body)) return summary(body);
    const last = body.messages.at(-1)!;
    if (last.role === 'user')
      return { toolCalls: [{ id: `call_${++calls}`, name: 'read_file', args: { file_path: 'notes.txt' } }] };
    if (mentions(body, 'SUMMARY-PELICAN')) return { text: 'The code word is PELICAN (from the summary).' };
    if (mentions(body, FIRST_MESSAGE)) return { text: 'The code word is PELICAN (from the first message).' };
    return { text: 'I do not know the code word.' };
  };
}

const summarizing = (body: Body) => ({
  text: mentions(body, FIRST_MESSAGE)
    ? 'SUMMARY-PELICAN: the user gave the code word PELICAN.'
    : 'SUMMARY: chatter.',
});

async function runTurn(ctx: TestContext, user: TestUser, threadId: string, input: string) {
  const { run_id } = await startRun(ctx, user, threadId, { input });
  await waitForStatus(ctx, run_id, isTerminal, 60_000);
  return run_id;
}

const messageRows = (ctx: TestContext, threadId: string) =>
  ctx.dataSource.query<{ id: string; role: string; content: string }[]>(
    `SELECT id, role, content FROM messages WHERE thread_id = $1 ORDER BY position`,
    [threadId],
  );

/** Every tool call of a request has its result, and every result follows its call. */
function expectPairsKept(body: Body) {
  expect(unansweredToolCalls(body.messages)).toEqual([]);
  const asked = new Set<string>();
  for (const message of body.messages) {
    for (const call of (message.tool_calls ?? []) as { id: string }[]) asked.add(call.id);
    if (message.role === 'tool') expect(asked.has(message.tool_call_id!)).toBe(true);
  }
}

/** The run's model calls as counted: purpose and tokens, oldest first. */
const usageRows = (ctx: TestContext, runId: string) =>
  ctx.dataSource.query<{ purpose: string; input_tokens: number; output_tokens: number }[]>(
    `SELECT purpose, input_tokens, output_tokens FROM model_usage WHERE run_id = $1 ORDER BY created_at, id`,
    [runId],
  );

const lastUser = (body: Body) =>
  body.messages.filter((m) => m.role === 'user' && !text(m.content).startsWith('[Summary')).at(-1);

describe('context compression of long threads', () => {
  let runtime: RuntimeContext;
  let user: TestUser;

  beforeAll(async () => {
    runtime = await startRuntime({ MODEL_CONTEXT_TOKENS_FAKE_MODEL: '12000' });
    user = await runtime.ctx.newUser();
  });

  afterAll(() => runtime.close());

  it('summarizes the oldest turns into the graph state, keeps pairs and the latest message, and answers from the summary', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, user);
    const runs: string[] = [];
    runs.push(await runTurn(ctx, user, threadId, `${FIRST_MESSAGE} ${filler(1)}`));
    const rowsBefore: { id: string; role: string; content: string }[] = [];
    let turn = 2;
    while (!fake.requests.some((r) => isSummaryRequest(r.body)) && turn < 20) {
      rowsBefore.splice(0, rowsBefore.length, ...(await messageRows(ctx, threadId)));
      runs.push(await runTurn(ctx, user, threadId, filler(turn++)));
    }
    const summaryAt = fake.requests.findIndex((r) => isSummaryRequest(r.body));
    expect(summaryAt).toBeGreaterThan(0);
    // The transcript the summary was made from had the first turn.
    expect(mentions(fake.requests[summaryAt].body, FIRST_MESSAGE)).toBe(true);

    const question = 'What is the code word?';
    runs.push(await runTurn(ctx, user, threadId, question));
    for (const id of runs) expect((await runRow(ctx, id)).status).toBe('completed');

    const main = fake.requests.slice(summaryAt + 1).filter((r) => !isSummaryRequest(r.body));
    expect(main.length).toBeGreaterThan(2);
    for (const request of main) {
      expectPairsKept(request.body);
      // The summary replaced the old turns: it is sent, they are not.
      expect(mentions(request.body, 'SUMMARY-PELICAN')).toBe(true);
      expect(mentions(request.body, FIRST_MESSAGE)).toBe(false);
    }
    for (const request of fake.requests.filter((r) => !isSummaryRequest(r.body)))
      expectPairsKept(request.body);
    // The latest user message is sent verbatim; the answer comes from the summary.
    expect(text(lastUser(main.at(-1)!.body)?.content)).toBe(question);
    const [answer] = await ctx.dataSource.query<{ content: string }[]>(
      `SELECT content FROM messages WHERE run_id = $1 AND role = 'assistant' ORDER BY position DESC LIMIT 1`,
      [runs.at(-1)],
    );
    expect(answer.content).toBe('The code word is PELICAN (from the summary).');

    // The run that compressed says so in its events.
    const compressing = runs[runs.length - 2];
    const events = (await storedEvents(ctx, compressing)).filter((e) => e.type === 'context_compression');
    expect(events.map((e) => e.payload.status)).toEqual(['started', 'completed']);
    expect(events[1].payload.tokens_after).toBeLessThan(events[1].payload.tokens_before);
    expect(events[0].payload.tokens_before).toBeGreaterThan(9600);

    // The summary call is counted as one, purpose summary, apart from the run's own token_usage.
    const counted = await usageRows(ctx, compressing);
    expect(counted.filter((row) => row.purpose === 'summary')).toHaveLength(1);
    const agentCalls = counted.filter((row) => row.purpose === 'agent');
    expect(agentCalls.length).toBe(counted.length - 1);
    const shown = await ctx.http.get(`/api/runs/${compressing}`).set(auth(user));
    expect(shown.body.token_usage).toMatchObject({
      input_tokens: agentCalls.reduce((sum, row) => sum + row.input_tokens, 0),
      output_tokens: agentCalls.reduce((sum, row) => sum + row.output_tokens, 0),
    });
    const threadUsage = await ctx.http.get(`/api/threads/${threadId}/usage`).set(auth(user));
    const [{ calls }] = await ctx.dataSource.query<{ calls: number }[]>(
      `SELECT count(*)::int AS calls FROM model_usage WHERE thread_id = $1`,
      [threadId],
    );
    expect(threadUsage.body.total.calls).toBe(calls);

    // What clients read is untouched: every earlier row is still there, unchanged.
    const rowsAfter = await messageRows(ctx, threadId);
    expect(rowsAfter.slice(0, rowsBefore.length)).toEqual(rowsBefore);
    expect(rowsAfter.length).toBe(runs.length * 4);

    // The full summary is in the workdir's .summaries/.
    const dir = workdirFile(ctx, user.id, threadId, '.summaries');
    const files = await readdir(dir);
    expect(files).toHaveLength(1);
    expect(await readFile(`${dir}/${files[0]}`, 'utf8')).toBe(
      'SUMMARY-PELICAN: the user gave the code word PELICAN.',
    );
  }, 180_000);

  it('first shortens long tool results of earlier turns in what is sent, the stored results whole', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, user);
    const notes = Array.from({ length: 60 }, (_, i) => `line ${i}: ${'the notes go on '.repeat(3)}`).join(
      '\n',
    );
    const upload = await ctx.http
      .post(`/api/threads/${threadId}/files`)
      .set(auth(user))
      .attach('file', Buffer.from(notes), 'notes.txt');
    expect(upload.status).toBe(201);
    const from = fake.requests.length;
    const runs = [];
    for (let turn = 1; turn <= 4; turn++)
      runs.push(await runTurn(ctx, user, threadId, `Read the notes (${turn}).`));
    for (const id of runs) expect((await runRow(ctx, id)).status).toBe('completed');
    const sent = fake.requests.slice(from);
    expect(sent.some((r) => isSummaryRequest(r.body))).toBe(false);
    const last = sent.at(-1)!.body;
    const results = last.messages.filter((m) => m.role === 'tool').map((m) => text(m.content));
    expect(results).toHaveLength(4);
    // The earlier turns' results are previews; the latest turn's is whole.
    for (const result of results.slice(0, 3)) {
      expect(result).toContain('characters of this earlier tool result left out');
      expect(result.length).toBeLessThan(1200);
    }
    expect(results[3]).toContain('line 59');
    expect(results[3]).not.toContain('left out');
    expectPairsKept(last);
    const stored = await ctx.dataSource.query<{ content: string }[]>(
      `SELECT content FROM messages WHERE thread_id = $1 AND role = 'tool' ORDER BY position`,
      [threadId],
    );
    expect(stored).toHaveLength(4);
    for (const row of stored) expect(row.content).toContain('line 59');
  }, 60_000);

  it("keeps a run's own summarized replies when the run resumes after a question", async () => {
    const { ctx, fake } = runtime;
    const threadId = await newThread(ctx, user);
    const notes = Array.from({ length: 60 }, (_, i) => `line ${i}: ${'the notes go on '.repeat(3)}`).join(
      '\n',
    );
    await ctx.http
      .post(`/api/threads/${threadId}/files`)
      .set(auth(user))
      .attach('file', Buffer.from(notes), 'notes.txt');
    // One run: long reads (with text, so each reply is a message row) until a summary, then a
    // question, then an answer.
    let step = 0;
    let asked = false;
    const from = fake.requests.length;
    fake.route((body) => {
      if (isSummaryRequest(body)) return summarizing(body);
      const last = body.messages.at(-1)!;
      if (last.role === 'tool' && text(last.content).includes('Engineers')) return { text: 'Done reading.' };
      if (!asked && fake.requests.slice(from).some((r) => isSummaryRequest(r.body))) {
        asked = true;
        return {
          toolCalls: [
            {
              id: 'call_ask',
              name: 'ask_user_question',
              args: { questions: [{ question: 'Who reads it?' }] },
            },
          ],
        };
      }
      step++;
      return {
        text: `Reading ${step}.`,
        toolCalls: [{ id: `read_${step}`, name: 'read_file', args: { file_path: 'notes.txt' } }],
      };
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, {
      input: `${FIRST_MESSAGE} Read the notes.`,
    });
    await waitForStatus(ctx, runId, (status) => status === 'waiting' || isTerminal(status), 60_000);
    expect(fake.requests.slice(from).some((r) => isSummaryRequest(r.body))).toBe(true);
    const rowsBefore = await messageRows(ctx, threadId);
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    const questionId = (point.body as { questions: { question_id: string }[] }).questions[0].question_id;
    const answered = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { [questionId]: 'Engineers' } });
    expect(answered.status).toBe(200);
    await waitForStatus(ctx, runId, isTerminal, 60_000);
    expect((await runRow(ctx, runId)).status).toBe('completed');
    // The resumed run found its summarized replies in the summary's ids: no row was deleted.
    const rowsAfter = await messageRows(ctx, threadId);
    expect(rowsAfter.slice(0, rowsBefore.length)).toEqual(rowsBefore);
    expect(rowsAfter.filter((row) => row.content.startsWith('Reading '))).toHaveLength(step);
    for (const request of fake.requests.slice(from).filter((r) => !isSummaryRequest(r.body)))
      expectPairsKept(request.body);
  }, 90_000);

  it('compresses and retries once when the provider says the request is too long', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, user);
    await runTurn(ctx, user, threadId, `${FIRST_MESSAGE} ${filler(1)}`);
    const from = fake.requests.length;
    fake.failNext(1, {
      kind: 'status',
      status: 400,
      error: {
        code: 'context_length_exceeded',
        message: "This model's maximum context length is 4096 tokens.",
      },
    });
    const runId = await runTurn(ctx, user, threadId, 'What is the code word?');
    expect(await runRow(ctx, runId)).toMatchObject({ status: 'completed', error: null });
    const sent = fake.requests.slice(from);
    // Refused, summarized, sent again with the summary, then the tool result's turn.
    expect(sent.map((r) => isSummaryRequest(r.body))).toEqual([false, true, false, false]);
    expect(mentions(sent[2].body, 'SUMMARY-PELICAN')).toBe(true);
    expect(text(lastUser(sent[2].body)?.content)).toBe('What is the code word?');
    const events = (await storedEvents(ctx, runId)).filter((e) => e.type === 'context_compression');
    expect(events.map((e) => e.payload.status)).toEqual(['started', 'completed']);
  }, 60_000);

  it('fails with runs.context_overflow when the provider refuses the compressed request too', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, user);
    await runTurn(ctx, user, threadId, `${FIRST_MESSAGE} ${filler(1)}`);
    const overflow = {
      kind: 'status' as const,
      status: 400,
      error: { code: 'context_length_exceeded', message: 'too long' },
    };
    const from = fake.requests.length;
    fake.route((body) => (isSummaryRequest(body) ? summarizing(body) : { fail: overflow }));
    const runId = await runTurn(ctx, user, threadId, 'What is the code word?');
    expect((await runRow(ctx, runId)).error?.code).toBe('runs.context_overflow');
    // One refusal, one summary, one retry: no more.
    expect(fake.requests.slice(from).map((r) => isSummaryRequest(r.body))).toEqual([false, true, false]);
  }, 60_000);
});

describe('POST /api/threads/:id/compact', () => {
  let runtime: RuntimeContext;
  let owner: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    runtime = await startRuntime({ MODEL_CONTEXT_TOKENS_FAKE_MODEL: '12000' });
    owner = await runtime.ctx.newUser();
    other = await runtime.ctx.newUser();
  });

  afterAll(() => runtime.close());

  const compact = (user: TestUser, threadId: string) =>
    runtime.ctx.http.post(`/api/threads/${threadId}/compact`).set(auth(user)).send();

  it("refuses another user's thread with 404 and a busy or waiting thread with 409", async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, owner);
    const missing = await compact(other, threadId);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('threads.not_found');

    const held = fake.holdNext();
    const { run_id } = await startRun(ctx, owner, threadId, { input: 'hello' });
    await held.arrived;
    const busy = await compact(owner, threadId);
    expect(busy.status).toBe(409);
    expect(busy.body).toMatchObject({ code: 'runs.thread_busy', details: { active_run_id: run_id } });
    held.release();
    await waitForStatus(ctx, run_id, isTerminal);
    // A run waiting for the user's answer holds the thread too.
    fake.route(() => ({
      toolCalls: [
        { id: 'call_ask', name: 'ask_user_question', args: { questions: [{ question: 'Which?' }] } },
      ],
    }));
    const waiting = await startRun(ctx, owner, threadId, { input: 'ask me' });
    await waitForStatus(ctx, waiting.run_id, (status) => status === 'waiting');
    const answerFirst = await compact(owner, threadId);
    expect(answerFirst.status).toBe(409);
    expect(answerFirst.body).toMatchObject({
      code: 'runs.waiting_for_answer',
      details: { waiting_run_id: waiting.run_id },
    });
    await ctx.http.post(`/api/runs/${waiting.run_id}/cancel`).set(auth(owner)).send();
    await waitForStatus(ctx, waiting.run_id, isTerminal);
    // Nothing was summarized for any refusal.
    expect(fake.requests.some((r) => isSummaryRequest(r.body))).toBe(false);
  }, 60_000);

  it('summarizes an idle thread in its checkpoint: the next run reads the summary, the rows stay', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(summarizing));
    const threadId = await newThread(ctx, owner);
    await runTurn(ctx, owner, threadId, `${FIRST_MESSAGE} ${filler(1)}`);
    await runTurn(ctx, owner, threadId, filler(2));
    const lastInput = filler(3);
    await runTurn(ctx, owner, threadId, lastInput);
    expect(fake.requests.some((r) => isSummaryRequest(r.body))).toBe(false);
    const rowsBefore = await messageRows(ctx, threadId);

    const accepted = await compact(owner, threadId);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ thread_id: threadId, status: 'queued' });
    const dir = workdirFile(ctx, owner.id, threadId, '.summaries');
    const files = await eventually(
      () => readdir(dir).catch(() => [] as string[]),
      (names) => names.length > 0,
      20_000,
    );
    expect(await readFile(`${dir}/${files[0]}`, 'utf8')).toBe(
      'SUMMARY-PELICAN: the user gave the code word PELICAN.',
    );
    expect(await messageRows(ctx, threadId)).toEqual(rowsBefore);
    // No run made the summary call: it is counted under the thread's latest run, as a summary.
    const [latest] = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE thread_id = $1 ORDER BY created_at DESC LIMIT 1`,
      [threadId],
    );
    const counted = await eventually(
      () => usageRows(ctx, latest.id),
      (rows) => rows.some((row) => row.purpose === 'summary'),
      10_000,
    );
    expect(counted.filter((row) => row.purpose === 'summary')).toHaveLength(1);

    const from = fake.requests.length;
    const runId = await runTurn(ctx, owner, threadId, 'What is the code word?');
    expect((await runRow(ctx, runId)).status).toBe('completed');
    const sent = fake.requests.slice(from);
    expect(sent.some((r) => isSummaryRequest(r.body))).toBe(false);
    const first = sent[0].body;
    expect(mentions(first, 'SUMMARY-PELICAN')).toBe(true);
    expect(mentions(first, FIRST_MESSAGE)).toBe(false);
    expect(mentions(first, filler(2))).toBe(false);
    // The latest turn before the compaction is kept verbatim, then the new message.
    const users = first.messages.filter((m) => m.role === 'user').map((m) => text(m.content));
    expect(users.slice(-2)).toEqual([lastInput, 'What is the code word?']);
    for (const request of sent) expectPairsKept(request.body);
    const [answer] = await ctx.dataSource.query<{ content: string }[]>(
      `SELECT content FROM messages WHERE run_id = $1 AND role = 'assistant' ORDER BY position DESC LIMIT 1`,
      [runId],
    );
    expect(answer.content).toBe('The code word is PELICAN (from the summary).');
    expect((await messageRows(ctx, threadId)).slice(0, rowsBefore.length)).toEqual(rowsBefore);
  }, 60_000);
});

describe('context compression when the summary call fails', () => {
  let runtime: RuntimeContext;
  let user: TestUser;

  beforeAll(async () => {
    // Compressed above 70% of the window: a request between the two still fits as it is.
    runtime = await startRuntime({
      MODEL_CONTEXT_TOKENS_FAKE_MODEL: '12000',
      CONTEXT_COMPRESSION_RATIO: '0.7',
    });
    user = await runtime.ctx.newUser();
  });

  afterAll(() => runtime.close());

  it('keeps the history, goes on uncompressed while it fits, then fails with runs.context_overflow', async () => {
    const { ctx, fake } = runtime;
    fake.route(modelRouter(() => ({ fail: { kind: 'status', status: 500 } })));
    const threadId = await newThread(ctx, user);
    const runs = [await runTurn(ctx, user, threadId, `${FIRST_MESSAGE} ${filler(1)}`)];
    for (let turn = 2; turn < 20; turn++) {
      runs.push(await runTurn(ctx, user, threadId, filler(turn)));
      if ((await runRow(ctx, runs.at(-1)!)).status === 'failed') break;
    }
    const failedEvents = async (runId: string) =>
      (await storedEvents(ctx, runId))
        .filter((e) => e.type === 'context_compression')
        .map((e) => e.payload.status);
    const last = runs.at(-1)!;
    expect((await runRow(ctx, last)).error?.code).toBe('runs.context_overflow');
    // An earlier run tried, failed, and went on with the whole history.
    const proceeded = [];
    for (const id of runs.slice(0, -1)) if ((await failedEvents(id)).includes('failed')) proceeded.push(id);
    expect(proceeded.length).toBeGreaterThan(0);
    for (const id of proceeded) expect((await runRow(ctx, id)).status).toBe('completed');
    for (const id of proceeded) {
      const statuses = await failedEvents(id);
      expect(statuses.length % 2).toBe(0);
      expect(statuses).toEqual(statuses.map((_, i) => (i % 2 === 0 ? 'started' : 'failed')));
    }
    const main = fake.requests.filter((r) => !isSummaryRequest(r.body));
    for (const request of main) {
      expectPairsKept(request.body);
      expect(mentions(request.body, FIRST_MESSAGE)).toBe(true);
    }
    await expect(readdir(workdirFile(ctx, user.id, threadId, '.summaries'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  }, 240_000);
});
