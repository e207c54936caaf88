import { getQueueToken } from '@nestjs/bullmq';
import type { JobsOptions, Queue } from 'bullmq';
import { Client } from 'pg';
import {
  AGENT_RUNS_QUEUE,
  type AgentRunJob,
} from '../../../src/modules/agent-runtime/queue/agent-runs.queue';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { countRows, eventRows, runRow } from '../../support/runs/run-rows';
import { TestContext, type TestUser } from '../../support/test-app';

/** What a separate connection saw committed at the moment the run was handed to BullMQ. */
interface EnqueueObservation {
  jobId: string | undefined;
  runId: string;
  runs: { status: string; input: string }[];
  messages: { role: string; content: string }[];
  events: { seq: number; type: string; payload: Record<string, unknown> }[];
}

/** Waits until some backend waits for an advisory lock (the request the test holds back). */
async function waitForLockWaiter(observer: Client): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await observer.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks
        WHERE locktype = 'advisory' AND NOT granted
          AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    if (rows[0].n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no request waited for the advisory lock');
}

// APP_ROLE=api: no worker consumes the queue, so every run stays where the API put it.
describe('runs HTTP API: creation, commit-before-enqueue, request_id, waiting threads', () => {
  let ctx: TestContext;
  let user: TestUser;
  let queue: Queue<AgentRunJob>;
  let observer: Client;
  const observed: EnqueueObservation[] = [];

  const post = (threadId: string, body: object) =>
    ctx.http.post(`/api/threads/${threadId}/runs`).set(auth(user)).send(body);

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    user = await ctx.newUser();
    queue = ctx.app.get<Queue<AgentRunJob>>(getQueueToken(AGENT_RUNS_QUEUE));
    observer = new Client({ connectionString: ctx.config.database.url.reveal() });
    await observer.connect();
    const add = queue.add.bind(queue);
    const observingAdd = async (name: string, data: AgentRunJob, opts?: JobsOptions) => {
      const runs = await observer.query<EnqueueObservation['runs'][number]>(
        `SELECT status, input FROM runs WHERE id = $1`,
        [data.runId],
      );
      const messages = await observer.query<EnqueueObservation['messages'][number]>(
        `SELECT role, content FROM messages WHERE run_id = $1`,
        [data.runId],
      );
      const events = await observer.query<EnqueueObservation['events'][number]>(
        `SELECT seq, type, payload FROM run_events WHERE run_id = $1 ORDER BY seq`,
        [data.runId],
      );
      observed.push({
        jobId: opts?.jobId,
        runId: data.runId,
        runs: runs.rows,
        messages: messages.rows,
        events: events.rows,
      });
      return add(name, data, opts);
    };
    queue.add = observingAdd as typeof queue.add;
  });

  afterAll(async () => {
    await observer?.end();
    await ctx?.close();
  });

  beforeEach(() => observed.splice(0));

  it('commits the run, its user message and event 1 before enqueueing a job whose id is the run id', async () => {
    const threadId = await newThread(ctx, user);
    const accepted = await startRun(ctx, user, threadId, { input: 'Is it committed?' });
    expect(accepted).toMatchObject({ status: 'queued', queue_position: 0 });

    expect(observed).toEqual([
      {
        jobId: accepted.run_id,
        runId: accepted.run_id,
        runs: [{ status: 'queued', input: 'Is it committed?' }],
        messages: [{ role: 'user', content: 'Is it committed?' }],
        events: [{ seq: 1, type: 'status', payload: { status: 'queued' } }],
      },
    ]);
    const job = await queue.getJob(accepted.run_id);
    expect(job?.data).toEqual({ runId: accepted.run_id, requestId: expect.any(String) });
  });

  it('does not enqueue a run that waits behind another one on its thread', async () => {
    const threadId = await newThread(ctx, user);
    const first = await startRun(ctx, user, threadId, { input: 'first' });
    const second = await startRun(ctx, user, threadId, { input: 'second' });
    expect(second).toMatchObject({ status: 'queued', queue_position: 1 });
    expect(observed.map((o) => o.runId)).toEqual([first.run_id]);
    expect(await queue.getJob(second.run_id)).toBeUndefined();
    expect((await runRow(ctx, second.run_id)).status).toBe('queued');
    expect(await eventRows(ctx, second.run_id)).toEqual([
      { seq: 1, type: 'status', payload: { status: 'queued' } },
    ]);
  });

  it('returns the first run for a replay of the same request_id and payload, storing one run', async () => {
    const threadId = await newThread(ctx, user);
    const body = { input: 'Say it once', request_id: 'replay-1' };
    const first = await post(threadId, body);
    const again = await post(threadId, body);
    expect(first.status).toBe(202);
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'run_events', 'run_id', first.body.run_id)).toBe(1);
    expect(observed).toHaveLength(1);
  });

  it('refuses a different payload under a used request_id with 409 and stores nothing', async () => {
    const threadId = await newThread(ctx, user);
    const first = await post(threadId, { input: 'original', request_id: 'conflict-1' });
    expect(first.status).toBe(202);

    const otherInput = await post(threadId, { input: 'changed', request_id: 'conflict-1' });
    expect(otherInput.status).toBe(409);
    expect(otherInput.body).toMatchObject({ status_code: 409, code: 'common.request_id_conflict' });
    const otherPolicy = await post(threadId, {
      input: 'original',
      request_id: 'conflict-1',
      queue_policy: 'reject',
    });
    expect(otherPolicy.body.code).toBe('common.request_id_conflict');
    const otherThreadId = await newThread(ctx, user);
    const otherThread = await post(otherThreadId, { input: 'original', request_id: 'conflict-1' });
    expect(otherThread.body.code).toBe('common.request_id_conflict');

    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'runs', 'thread_id', otherThreadId)).toBe(0);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);
    expect((await runRow(ctx, first.body.run_id)).input).toBe('original');
  });

  it('creates one run for concurrent identical POSTs with the same request_id', async () => {
    const threadId = await newThread(ctx, user);
    const body = { input: 'Race me', request_id: 'concurrent-1' };
    const responses = await Promise.all(Array.from({ length: 6 }, () => post(threadId, body)));
    expect(responses.map((r) => r.status)).toEqual(Array(6).fill(202));
    const runIds = new Set(responses.map((r) => r.body.run_id as string));
    expect(runIds.size).toBe(1);
    expect(responses.map((r) => r.body.queue_position)).toEqual(Array(6).fill(0));
    const rows = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE user_id = $1 AND request_id = 'concurrent-1'`,
      [user.id],
    );
    expect(rows.map((r) => r.id)).toEqual([...runIds]);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);
    expect(observed.map((o) => o.runId)).toEqual([...runIds]);
  });

  it('gives concurrent POSTs on one thread distinct queue positions and enqueues only the head', async () => {
    const threadId = await newThread(ctx, user);
    const responses = await Promise.all(
      [1, 2, 3, 4].map((n) => post(threadId, { input: `Concurrent ${n}` })),
    );
    expect(responses.map((r) => r.status)).toEqual([202, 202, 202, 202]);
    const byPosition = [...responses].sort((a, b) => a.body.queue_position - b.body.queue_position);
    expect(byPosition.map((r) => r.body.queue_position)).toEqual([0, 1, 2, 3]);
    const rows = await ctx.dataSource.query<{ id: string }[]>(
      `SELECT id FROM runs WHERE thread_id = $1 ORDER BY created_at, id`,
      [threadId],
    );
    expect(rows.map((r) => r.id)).toEqual(byPosition.map((r) => r.body.run_id));
    expect(observed.map((o) => o.runId)).toEqual([byPosition[0].body.run_id]);
  });

  it('orders runs by when they took the thread, not when their transaction began', async () => {
    // A holds its request-id lock from a second connection, so A's transaction begins first but takes
    // the thread after B: A is second in line and must stay second, whatever its transaction start says.
    const threadId = await newThread(ctx, user);
    const holder = new Client({ connectionString: ctx.config.database.url.reveal() });
    await holder.connect();
    try {
      await holder.query(`SELECT pg_advisory_lock(hashtext($1))`, [`runs:request:${user.id}:late-a`]);
      const a = post(threadId, { input: 'A', request_id: 'late-a' }).then((r) => r);
      await waitForLockWaiter(holder);
      const b = await post(threadId, { input: 'B' });
      expect(b.body.queue_position).toBe(0);
      await holder.query(`SELECT pg_advisory_unlock(hashtext($1))`, [`runs:request:${user.id}:late-a`]);
      const late = await a;
      expect(late.body.queue_position).toBe(1);
      const rows = await ctx.dataSource.query<{ id: string }[]>(
        `SELECT id FROM runs WHERE thread_id = $1 ORDER BY created_at, id`,
        [threadId],
      );
      expect(rows.map((r) => r.id)).toEqual([b.body.run_id, late.body.run_id]);
      const reread = await ctx.http.get(`/api/runs/${late.body.run_id}`).set(auth(user));
      expect(reread.status).toBe(200);
      expect(observed.map((o) => o.runId)).toEqual([b.body.run_id]);
    } finally {
      await holder.end();
    }
  });

  it('refuses any new run on a thread whose run waits for an answer with 409 runs.waiting_for_answer', async () => {
    const threadId = await newThread(ctx, user);
    const waiting = await startRun(ctx, user, threadId, { input: 'Ask me something' });
    await ctx.dataSource.query(`UPDATE runs SET status = 'waiting' WHERE id = $1`, [waiting.run_id]);

    for (const queue_policy of ['enqueue', 'reject']) {
      const res = await post(threadId, { input: 'Another question', queue_policy });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({
        code: 'runs.waiting_for_answer',
        details: { waiting_run_id: waiting.run_id },
      });
    }
    expect(await countRows(ctx, 'runs', 'thread_id', threadId)).toBe(1);
    expect(await countRows(ctx, 'messages', 'thread_id', threadId)).toBe(1);

    // Once the waiting run is cancelled, the thread takes runs again.
    const cancelled = await ctx.http.post(`/api/runs/${waiting.run_id}/cancel`).set(auth(user));
    expect(cancelled.body.status).toBe('cancelled');
    const next = await post(threadId, { input: 'Another question' });
    expect(next.status).toBe(202);
    expect(next.body.queue_position).toBe(0);
  });
});
