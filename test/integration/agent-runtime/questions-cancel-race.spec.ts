import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { startRuntime } from '../../support/runs/runtime-context';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import type { TestContext, TestUser } from '../../support/test-app';

const BATCHES = 5;
const PAIRS_PER_BATCH = 10;
const ANSWERS = { 'q-1': 'yes' };

interface Pair {
  runId: string;
  answer: { status: number; code?: string };
  cancel: { status: number; code?: string; runStatus?: string };
}

describe('cancel racing an answer on a waiting run', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;

  beforeAll(async () => {
    ({ fake, ctx, close } = await startRuntime());
    user = await ctx.newUser();
  });

  afterAll(() => close());

  async function waitingRuns(count: number): Promise<string[]> {
    for (let i = 0; i < count; i++)
      fake.script({
        toolCalls: [
          { id: 'call_ask', name: 'ask_user_question', args: { questions: [{ question: 'Go?' }] } },
        ],
      });
    return Promise.all(
      Array.from({ length: count }, async () => {
        const threadId = await newThread(ctx, user);
        const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'Ask first' });
        const status = await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s));
        if (status !== 'waiting') throw new Error(`run ${runId} ${status} instead of waiting`);
        return runId;
      }),
    );
  }

  async function race(runId: string): Promise<Pair> {
    const [answer, cancel] = await Promise.all([
      ctx.http.post(`/api/runs/${runId}/answers`).set(auth(user)).send({ answers: ANSWERS }),
      ctx.http.post(`/api/runs/${runId}/cancel`).set(auth(user)),
    ]);
    return {
      runId,
      answer: { status: answer.status, code: answer.body.code },
      cancel: { status: cancel.status, code: cancel.body.code, runStatus: cancel.body.status },
    };
  }

  it('never answers 5xx and always ends in one consistent state, with the rows agreeing', async () => {
    const pairs: Pair[] = [];
    for (let batch = 0; batch < BATCHES; batch++) {
      const runIds = await waitingRuns(PAIRS_PER_BATCH);
      // A run whose answer wins resumes and calls the model once more.
      for (let i = 0; i < PAIRS_PER_BATCH; i++) fake.script({ text: 'Going.' });
      const settled = await Promise.all(runIds.map(race));
      await Promise.all(runIds.map((runId) => waitForStatus(ctx, runId, isTerminal)));
      fake.clearScript();
      pairs.push(...settled);
    }

    expect(pairs.filter((pair) => pair.answer.status >= 500 || pair.cancel.status >= 500)).toEqual([]);
    const outcomes = new Map<string, number>();
    for (const pair of pairs) {
      const [run] = await ctx.dataSource.query<{ status: string }[]>(
        `SELECT status FROM runs WHERE id = $1`,
        [pair.runId],
      );
      const [point] = await ctx.dataSource.query<{ status: string; answers: unknown }[]>(
        `SELECT status, answers FROM waiting_points WHERE run_id = $1`,
        [pair.runId],
      );
      const seen = { ...pair, run: run.status, point: point.status };
      if (pair.answer.status === 200) {
        // The answer won: the cancel came after it (queued/running run), or after the run had ended.
        expect({ ...seen, answers: point.answers }).toMatchObject({ point: 'answered', answers: ANSWERS });
        if (pair.cancel.status === 200) {
          expect(['cancelled', 'cancel_requested']).toContain(pair.cancel.runStatus);
          expect(seen.run).toBe('cancelled');
        } else {
          expect(seen).toMatchObject({
            cancel: { status: 409, code: 'runs.already_finished' },
            run: 'completed',
          });
        }
      } else {
        // The cancel won: the waiting point was withdrawn with the run.
        expect(seen).toMatchObject({
          answer: { status: 409, code: 'runs.not_waiting' },
          cancel: { status: 200, runStatus: 'cancelled' },
          run: 'cancelled',
          point: 'cancelled',
        });
      }
      const key = `answer ${pair.answer.status} / cancel ${pair.cancel.status} ${pair.cancel.runStatus ?? ''}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
    }
    expect(pairs).toHaveLength(BATCHES * PAIRS_PER_BATCH);
    process.stdout.write(`cancel/answer race outcomes: ${JSON.stringify(Object.fromEntries(outcomes))}\n`);
    // 50 runs to a question and back: about 4 s alone, several times that beside another busy suite.
  }, 120_000);
});
