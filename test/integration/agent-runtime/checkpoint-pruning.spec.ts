import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { CheckpointPruning } from '../../../src/modules/agent-runtime/checkpoints/checkpoint-pruning';
import { LOCK_ACTIVE_RUNS_SQL } from '../../../src/modules/agent-runtime/checkpoints/checkpoint-prune-sql';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from '../../../src/modules/maintenance/maintenance.queue';
import type { FakeOpenAiServer } from '../../support/fake-openai/fake-openai-server';
import { childRuns, requestsFor, SubagentScripts } from '../../support/subagents/subagent-runtime';
import { call, gate, parentTurns, startCall } from '../../support/subagents/subagent-scripts';
import { checkpointRows } from '../../support/runs/checkpoint-rows';
import { auth, isTerminal, newThread, startRun, waitForStatus } from '../../support/runs/run-helpers';
import { startRuntime } from '../../support/runs/runtime-context';
import type { TestContext, TestUser } from '../../support/test-app';

const write = (n: number) => ({
  toolCalls: [{ id: `call_w${n}`, name: 'write_file', args: { file_path: `f${n}.md`, content: `v${n}` } }],
});

/** Issue 15: superseded checkpoints are pruned; resume, thread state and running threads are unaffected. */
describe('checkpoint pruning', () => {
  let fake: FakeOpenAiServer;
  let ctx: TestContext;
  let close: () => Promise<void>;
  let user: TestUser;
  let pruning: CheckpointPruning;

  beforeAll(async () => {
    // The schedule stays out of the way; the tests prune when they choose.
    ({ fake, ctx, close } = await startRuntime({ CHECKPOINT_PRUNE_INTERVAL_SECONDS: '86400' }));
    user = await ctx.newUser();
    pruning = ctx.app.get(CheckpointPruning);
  });

  afterAll(() => close());

  /** A run of three write_file calls and an answer, to its end. */
  async function threeToolRun(threadId: string, input: string) {
    fake.script(write(1), write(2), write(3), { text: `done: ${input}` });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    return runId;
  }

  const threadView = async (threadId: string) => ({
    messages: (await ctx.http.get(`/api/threads/${threadId}/messages`).set(auth(user)).expect(200)).body,
    state: (await ctx.http.get(`/api/threads/${threadId}/state`).set(auth(user)).expect(200)).body,
  });

  it('keeps only the latest checkpoint of an idle thread; its messages, state and next run are unchanged', async () => {
    const threadId = await newThread(ctx, user);
    await threeToolRun(threadId, 'first');
    await threeToolRun(threadId, 'second');
    const before = await checkpointRows(ctx, threadId);
    expect(before.checkpoints).toBeGreaterThan(10);
    expect(before.staleBlobs).toBeGreaterThan(0);
    const viewBefore = await threadView(threadId);

    expect(await pruning.pruneThread(threadId)).toEqual({
      checkpoints: before.checkpoints - 1,
      writes: before.staleWrites,
      blobs: before.staleBlobs,
    });
    const after = await checkpointRows(ctx, threadId);
    expect(after).toEqual({
      checkpoints: 1,
      writes: before.writes - before.staleWrites,
      blobs: before.blobs - before.staleBlobs,
      staleBlobs: 0,
      staleWrites: 0,
    });
    expect(await threadView(threadId)).toEqual(viewBefore);

    // The next run continues the whole conversation from the pruned checkpoint.
    fake.script({ text: 'third answer' });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'third' });
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const seen = fake.requests.at(-1)!.body.messages.filter((m) => m.role !== 'system');
    expect(seen.map((m) => m.role)).toEqual([
      ...['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
      ...['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
      'user',
    ]);
    expect(seen.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'second', 'third']);
  });

  it('prunes a thread waiting on ask_user_question, which then resumes with its answers', async () => {
    const threadId = await newThread(ctx, user);
    await threeToolRun(threadId, 'before the question');
    fake.script({
      toolCalls: [
        { id: 'call_ask', name: 'ask_user_question', args: { questions: [{ question: 'Which colour?' }] } },
      ],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask me' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');

    const pruned = await pruning.pruneThread(threadId);
    expect(pruned?.checkpoints).toBeGreaterThan(0);
    expect(await checkpointRows(ctx, threadId)).toMatchObject({
      checkpoints: 1,
      staleBlobs: 0,
      staleWrites: 0,
    });
    // The interrupt the run waits at lives in the latest checkpoint's pending writes: kept.
    const [interrupt] = await ctx.dataSource.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM langgraph.checkpoint_writes WHERE thread_id = $1 AND channel = '__interrupt__'`,
      [threadId],
    );
    expect(interrupt.n).toBe(1);

    fake.script({ text: 'Blue it is.' });
    await ctx.http
      .post(`/api/runs/${runId}/answers`)
      .set(auth(user))
      .send({ answers: { 'q-1': 'blue' } })
      .expect(200);
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    const seen = fake.requests.at(-1)!.body.messages;
    const answer = seen.find((m) => m.role === 'tool' && m.tool_call_id === 'call_ask');
    expect(JSON.parse(String(answer?.content)).answers).toEqual({ 'q-1': 'blue' });
    expect(seen.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'before the question',
      'ask me',
    ]);
  });

  it('holds an answer to a waiting run until the prune of its thread commits', async () => {
    const threadId = await newThread(ctx, user);
    fake.script({
      toolCalls: [
        { id: 'call_ask', name: 'ask_user_question', args: { questions: [{ question: 'Size?' }] } },
      ],
    });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'ask during a prune' });
    expect(await waitForStatus(ctx, runId, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');

    // The prune's first statement, in a transaction left open: the answer must wait for it.
    const prune = ctx.dataSource.createQueryRunner();
    await prune.connect();
    await prune.startTransaction();
    try {
      expect(await prune.query(LOCK_ACTIVE_RUNS_SQL, [threadId])).toEqual([{ status: 'waiting' }]);
      fake.script({ text: 'Large.' });
      const answered = ctx.http
        .post(`/api/runs/${runId}/answers`)
        .set(auth(user))
        .send({ answers: { 'q-1': 'large' } })
        .then((res) => res.status);
      const blocked = async () => {
        const [row] = await ctx.dataSource.query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return row.n > 0;
      };
      for (let i = 0; i < 200 && !(await blocked()); i++) await new Promise((r) => setTimeout(r, 25));
      expect(await blocked()).toBe(true);
      expect(await waitForStatus(ctx, runId, () => true)).toBe('waiting');
      await prune.commitTransaction();
      expect(await answered).toBe(200);
    } finally {
      if (prune.isTransactionActive) await prune.rollbackTransaction();
      await prune.release();
    }
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
  });

  it('prunes a parent parked in subagent_await, leaves its running child alone, and the parent resumes', async () => {
    const child = gate();
    new SubagentScripts(fake)
      .on('pruned child task', () => ({ reply: { text: 'output of the child' }, after: child.opened }))
      .on(
        'pruned parent',
        parentTurns([
          () => ({ toolCalls: [startCall('start_c', 'pruned child task')] }),
          (results) => ({
            toolCalls: [call('await_c', 'subagent_await', { run_id: results.get('start_c')!.run_id })],
          }),
          () => ({ text: 'the child is done' }),
        ]),
      );
    const threadId = await newThread(ctx, user);
    const parent = await startRun(ctx, user, threadId, { input: 'pruned parent' });
    expect(await waitForStatus(ctx, parent.run_id, (s) => s === 'waiting' || isTerminal(s))).toBe('waiting');
    const [kid] = await childRuns(ctx, parent.run_id);
    expect(await waitForStatus(ctx, kid.id, (s) => s === 'running' || isTerminal(s))).toBe('running');
    const childBefore = await checkpointRows(ctx, kid.thread_id);
    expect((await checkpointRows(ctx, threadId)).checkpoints).toBeGreaterThan(1);

    await pruning.pruneAll();
    expect(await checkpointRows(ctx, threadId)).toMatchObject({
      checkpoints: 1,
      staleBlobs: 0,
      staleWrites: 0,
    });
    expect(await checkpointRows(ctx, kid.thread_id)).toEqual(childBefore);

    child.open();
    expect(await waitForStatus(ctx, parent.run_id, isTerminal)).toBe('completed');
    const last = requestsFor(fake, 'pruned parent').at(-1)!.body.messages;
    const awaited = last.find((m) => m.role === 'tool' && m.tool_call_id === 'await_c');
    expect(JSON.parse(String(awaited?.content))).toEqual({
      run_id: kid.id,
      status: 'completed',
      output: 'output of the child',
    });
    expect(last.filter((m) => m.role === 'tool').map((m) => m.tool_call_id)).toEqual(['start_c', 'await_c']);
  });

  it('leaves a thread with a running run untouched', async () => {
    const threadId = await newThread(ctx, user);
    await threeToolRun(threadId, 'earlier');
    const hold = fake.holdNext();
    fake.script({ text: 'later answer' });
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'later' });
    await hold.arrived;
    const before = await checkpointRows(ctx, threadId);
    expect(before.checkpoints).toBeGreaterThan(1);

    expect(await pruning.pruneThread(threadId)).toBeNull();
    const pass = await pruning.pruneAll();
    expect(pass.skipped).toBeGreaterThanOrEqual(1);
    expect(await checkpointRows(ctx, threadId)).toEqual(before);

    hold.release();
    expect(await waitForStatus(ctx, runId, isTerminal)).toBe('completed');
    expect((await checkpointRows(ctx, threadId)).checkpoints).toBeGreaterThan(before.checkpoints);
  });

  it('runs as a scheduled maintenance job that removes rows of every idle thread', async () => {
    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.find((s) => s.key === MaintenanceJobs.pruneCheckpoints)).toMatchObject({
      name: MaintenanceJobs.pruneCheckpoints,
      every: 86_400_000,
    });

    const threads = [await newThread(ctx, user), await newThread(ctx, user)];
    for (const threadId of threads) await threeToolRun(threadId, 'for the job');
    const job = await queue.add(MaintenanceJobs.pruneCheckpoints, {});
    let state = await job.getState();
    for (let i = 0; i < 200 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    const result = (await queue.getJob(job.id!))?.returnvalue as { threads: number; deleted: number };
    expect(result.threads).toBeGreaterThanOrEqual(2);
    expect(result.deleted).toBeGreaterThan(0);
    for (const threadId of threads)
      expect(await checkpointRows(ctx, threadId)).toMatchObject({
        checkpoints: 1,
        staleBlobs: 0,
        staleWrites: 0,
      });
    expect(await pruning.pruneAll()).toMatchObject({ threads: 0, checkpoints: 0, writes: 0, blobs: 0 });
  });
});
