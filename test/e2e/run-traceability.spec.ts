import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { randomUUID } from 'node:crypto';
import { AGENT_RUNS_QUEUE, EXECUTE_RUN_JOB } from '../../src/modules/agent-runtime/queue/agent-runs.queue';
import { FakeOpenAiServer } from '../support/fake-openai/fake-openai-server';
import { auth, isTerminal, newThread, waitForStatus } from '../support/runs/run-helpers';
import { ServiceProcess } from '../support/service-process';
import { TestContext, type TestUser } from '../support/test-app';

jest.setTimeout(60_000);

interface LogLine {
  msg?: string;
  run_id?: string;
  request_id?: string;
  resume_request_id?: string;
  tool?: string;
  [key: string]: unknown;
}

/**
 * Issue 10 item 6: the X-Request-Id of the request that created a run reaches every log line the
 * worker writes for that run. The API runs in this process; the worker is the compiled entrypoint in
 * its own process (as in production), and its stdout is the log that is read.
 */
describe('a run traced from its HTTP request through the worker log', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let user: TestUser;
  let worker: ServiceProcess;
  let env: Record<string, string> = {};

  const startWorker = async () => {
    worker = ServiceProcess.start('worker', { ...env, APP_ROLE: 'worker', LOG_LEVEL: 'debug' });
    await until(() => worker.stdout.includes('agent-runs worker started'), 'the worker to start');
  };

  beforeAll(async () => {
    fake = await FakeOpenAiServer.start();
    const overrides = { OPENAI_BASE_URL: fake.baseUrl, DEFAULT_MODEL: 'fake-model' };
    ctx = await TestContext.start((base) => {
      env = { ...base, ...overrides };
      return overrides;
    });
    user = await ctx.newUser();
    await startWorker();
  });

  afterAll(async () => {
    worker?.kill();
    await ctx.close();
    await fake.close();
  });

  async function until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      if (Date.now() > deadline || worker.child.exitCode !== null)
        throw new Error(`timed out waiting for ${what}:\n${worker.stderr}\n${worker.stdout.slice(-3000)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Every line of the worker's log that mentions the run, anywhere in it. */
  const linesOf = (runId: string): LogLine[] =>
    worker.stdout
      .split('\n')
      .filter((line) => line.includes(runId))
      .map((line) => JSON.parse(line) as LogLine);

  const finishedLines = (runId: string) =>
    linesOf(runId).filter((line) => line.msg === 'run finished' || line.msg === 'run waiting');

  async function createRun(threadId: string, requestId: string, input: string): Promise<string> {
    const res = await ctx.http
      .post(`/api/threads/${threadId}/runs`)
      .set(auth(user))
      .set('X-Request-Id', requestId)
      .send({ input });
    expect(res.status).toBe(202);
    expect(res.headers['x-request-id']).toBe(requestId);
    return (res.body as { run_id: string }).run_id;
  }

  it('writes run_id and the creating request id on every worker line of the run, in every phase', async () => {
    const threadId = await newThread(ctx, user);
    const requestId = `trace-create-${randomUUID()}`;
    fake.script(
      { toolCalls: [{ id: 'call_w', name: 'write_file', args: { file_path: 'a.md', content: 'x' } }] },
      { text: 'Written.' },
    );
    const runId = await createRun(threadId, requestId, 'write a.md');

    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');
    await until(() => finishedLines(runId).length > 0, 'the run finished line');

    const lines = linesOf(runId);
    for (const line of lines) expect(line).toMatchObject({ run_id: runId, request_id: requestId });
    const messages = lines.map((line) => line.msg);
    expect(messages).toContain('run claimed');
    expect(lines.filter((line) => line.msg === 'model request')).toHaveLength(2);
    expect(lines.filter((line) => line.msg === 'tool call').map((line) => line.tool)).toEqual(['write_file']);
    expect(lines.filter((line) => line.msg === 'run finished')).toEqual([
      expect.objectContaining({ status: 'completed' }),
    ]);
    // The row keeps the creating request, so a re-queued run (reconciler) is traced the same way.
    const [row] = await ctx.dataSource.query<{ origin_request_id: string | null }[]>(
      `SELECT origin_request_id FROM runs WHERE id = $1`,
      [runId],
    );
    expect(row.origin_request_id).toBe(requestId);
  });

  it('names both the creating request and the answering one on the lines of a run resumed by an answer', async () => {
    const threadId = await newThread(ctx, user);
    const createId = `trace-create-${randomUUID()}`;
    const answerId = `trace-answer-${randomUUID()}`;
    fake.script({
      toolCalls: [{ id: 'call_q', name: 'ask_user_question', args: { questions: [{ question: 'Name?' }] } }],
    });
    const runId = await createRun(threadId, createId, 'ask me');
    await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s));
    await until(() => finishedLines(runId).length > 0, 'the run waiting line');
    const beforeAnswer = linesOf(runId).length;

    fake.script({ text: 'Thanks.' });
    const point = await ctx.http.get(`/api/runs/${runId}/waiting-point`).set(auth(user));
    const questionId = (point.body as { questions: { question_id: string }[] }).questions[0].question_id;
    const answered = await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .set('X-Request-Id', answerId)
      .send({ answers: { [questionId]: 'Ada' } });
    expect(answered.status).toBe(200);
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');
    await until(
      () => linesOf(runId).some((line) => line.msg === 'run finished'),
      'the resumed run finished line',
    );

    const lines = linesOf(runId);
    for (const line of lines) expect(line).toMatchObject({ run_id: runId, request_id: createId });
    // Before the answer nothing names it; after, every line of the resumed execution does.
    expect(lines.slice(0, beforeAnswer).every((line) => line.resume_request_id === undefined)).toBe(true);
    const resumed = lines.slice(beforeAnswer);
    expect(resumed.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['run claimed', 'model request', 'run finished']),
    );
    for (const line of resumed) expect(line.resume_request_id).toBe(answerId);
  });

  it('traces a job enqueued before jobs carried request ids by the run row', async () => {
    worker.kill();
    await worker.exit(5_000);
    const threadId = await newThread(ctx, user);
    const requestId = `trace-legacy-${randomUUID()}`;
    fake.script({ text: 'Old job, done.' });
    const runId = await createRun(threadId, requestId, 'from an old job');
    const queue = ctx.app.get<Queue>(getQueueToken(AGENT_RUNS_QUEUE));
    const job = await queue.getJob(runId);
    expect(job?.data).toEqual({ runId, requestId });
    await job!.remove();
    await queue.add(EXECUTE_RUN_JOB, { runId }, { jobId: runId, removeOnComplete: true });

    await startWorker();
    expect(await waitForStatus(ctx, runId, isTerminal, 30_000)).toBe('completed');
    await until(() => finishedLines(runId).length > 0, 'the run finished line');
    const lines = linesOf(runId);
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['run claimed', 'model request', 'run finished']),
    );
    // Only the claim itself reads the row, so every line from the claim on names the request.
    const claimed = lines.findIndex((line) => line.msg === 'run claimed');
    for (const line of lines.slice(claimed))
      expect(line).toMatchObject({ run_id: runId, request_id: requestId });
    for (const line of lines) expect(line.run_id).toBe(runId);
  });
});
