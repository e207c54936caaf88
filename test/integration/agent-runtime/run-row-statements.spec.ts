import { randomUUID } from 'node:crypto';
import { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import { RunStore } from '../../../src/modules/agent-runtime/runs/run-store';
import { RunEvents } from '../../../src/modules/agent-runtime/events/run-events';
import { RunTransitions } from '../../../src/modules/agent-runtime/runs/run-transitions';
import { RunEntity } from '../../../src/modules/agent-runtime/runs/run.entity';
import { RUN_ROW_COLUMNS } from '../../../src/modules/agent-runtime/runs/run-sql';
import { entityColumns } from '../../../src/database/prepared-find';
import { ThreadEntity } from '../../../src/modules/threads/thread.entity';
import { auth, newThread, startRun } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

/** The API role only: no worker claims the runs made here. */
describe('run rows read back from the statements that write them (RunTransitions)', () => {
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('creates a run in one statement: the run as TypeORM loads it, its first event as stored, the user message', async () => {
    const threadId = await newThread(ctx, user);
    const thread = await ctx.dataSource.getRepository(ThreadEntity).findOneByOrFail({ id: threadId });
    const runId = randomUUID();
    const messageId = randomUUID();
    const created = await ctx.dataSource.transaction((manager) =>
      ctx.app.get(RunTransitions).createIn(
        manager,
        {
          id: runId,
          threadId,
          userId: user.id,
          agentSlug: thread.agentSlug,
          agentId: thread.agentId,
          input: "it's \\ the input",
          model: 'model-x',
          parentRunId: null,
          requestId: 'request-1',
          payloadDigest: 'b'.repeat(64),
          originRequestId: 'origin-1',
          originTraceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        },
        { id: messageId, threadId, runId, role: 'user', content: "it's \\ the input" },
        { headsThread: true },
      ),
    );

    const loaded = await ctx.dataSource.getRepository(RunEntity).findOneByOrFail({ id: runId });
    expect(created.run).toBeInstanceOf(RunEntity);
    expect(created.run).toEqual(loaded);
    expect(loaded).toMatchObject({
      status: 'queued',
      attempts: 0,
      lastEventSeq: 1,
      model: 'model-x',
      originTraceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      resumeTraceparent: null,
    });
    expect(created.events).toEqual(await ctx.app.get(RunEventStore).listAfter(runId, 0));
    expect(created.events).toEqual([
      expect.objectContaining({ run_id: runId, seq: 1, type: 'status', payload: { status: 'queued' } }),
    ]);
    expect(
      await ctx.dataSource.query(`SELECT id, run_id, role, content FROM messages WHERE thread_id = $1`, [
        threadId,
      ]),
    ).toEqual([{ id: messageId, run_id: runId, role: 'user', content: "it's \\ the input" }]);
  });

  it('reads every column of the run entity in the statements that return a run', () => {
    const columns = (list: string) => list.split(',').map((column) => column.trim());
    expect(columns(RUN_ROW_COLUMNS)).toEqual(columns(entityColumns(ctx.dataSource.getRepository(RunEntity))));
  });

  it('claims a run in one statement: the run as TypeORM loads it once claimed, its event as stored', async () => {
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'claim me' });
    const transitions = ctx.app.get(RunTransitions);
    const published = jest.spyOn(ctx.app.get(RunEvents), 'publish');
    try {
      const claim = await transitions.claim(runId, randomUUID());
      expect(claim.kind).toBe('claimed');
      const loaded = await ctx.dataSource.getRepository(RunEntity).findOneByOrFail({ id: runId });
      expect(claim.kind === 'claimed' && claim.run).toEqual(loaded);
      expect(loaded).toMatchObject({ status: 'running', attempts: 1, lastEventSeq: 2 });
      expect(published).toHaveBeenCalledWith(runId, await ctx.app.get(RunEventStore).listAfter(runId, 1));
      // A run that is not the thread's head, or no longer queued, is not claimed.
      expect((await transitions.claim(runId, randomUUID())).kind).toBe('not_claimable');
    } finally {
      published.mockRestore();
    }
  });
  /** A run of `user` claimed under a fresh lease: what a worker holds while it records replies. */
  async function claimedRun(): Promise<{ runId: string; threadId: string; leaseToken: string }> {
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'count my tokens' });
    const leaseToken = randomUUID();
    expect((await ctx.app.get(RunTransitions).claim(runId, leaseToken)).kind).toBe('claimed');
    return { runId, threadId, leaseToken };
  }

  const usageRows = (runId: string) =>
    ctx.dataSource.query<Record<string, unknown>[]>(
      `SELECT id, run_id, thread_id, user_id, agent_id, model, purpose, input_tokens, output_tokens, cached_tokens
         FROM model_usage WHERE run_id = $1 ORDER BY created_at, id`,
      [runId],
    );
  const dailyRow = async (model: string) =>
    (
      await ctx.dataSource.query<{ input_tokens: string; calls: string }[]>(
        `SELECT input_tokens, calls FROM model_usage_daily WHERE user_id = $1 AND model = $2`,
        [user.id, model],
      )
    )[0];

  it('records a reply with its usage row in one statement, and a reply recorded again adds no second row', async () => {
    const { runId, threadId, leaseToken } = await claimedRun();
    const [{ agent_id: agentId }] = await ctx.dataSource.query<{ agent_id: string }[]>(
      `SELECT agent_id FROM runs WHERE id = $1`,
      [runId],
    );
    const messageId = randomUUID();
    const usage = { model: 'rows-model', input_tokens: 120, output_tokens: 30, cached_tokens: 100 };
    const record = {
      runId,
      leaseToken,
      events: [
        { type: 'message' as const, payload: { message_id: messageId } },
        { type: 'usage' as const, payload: { ...usage } },
      ],
      message: { id: messageId, threadId, runId, role: 'assistant' as const, content: 'hi', toolCalls: null },
      usage,
    };
    const store = ctx.app.get(RunStore);
    const stored = await store.appendRecord(record);
    expect(stored?.map((event) => [event.type, event.payload])).toEqual([
      ['message', { message_id: messageId }],
      ['usage', usage],
    ]);
    // The same step recorded again (a re-executed step keeps its message id): no second usage row.
    expect(await store.appendRecord(record)).not.toBeNull();
    // A worker whose lease is gone records nothing.
    const stale = { ...record, leaseToken: randomUUID(), message: { ...record.message, id: randomUUID() } };
    expect(await store.appendRecord(stale)).toBeNull();

    expect(await usageRows(runId)).toEqual([
      {
        id: messageId,
        run_id: runId,
        thread_id: threadId,
        user_id: user.id,
        agent_id: agentId,
        model: 'rows-model',
        purpose: 'agent',
        input_tokens: 120,
        output_tokens: 30,
        cached_tokens: 100,
      },
    ]);
    expect(await dailyRow('rows-model')).toEqual({ input_tokens: '120', calls: '1' });
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(run.body.token_usage).toEqual({
      input_tokens: 120,
      output_tokens: 30,
      total_tokens: 150,
      cached_tokens: 100,
    });
  });

  it('keeps the usage row of a reply that resume drops (the call was made) and counts the call made again once', async () => {
    const { runId, threadId, leaseToken } = await claimedRun();
    const store = ctx.app.get(RunStore);
    const reply = (content: string) => {
      const id = randomUUID();
      const usage = { model: 'resume-model', input_tokens: 10, output_tokens: 2, cached_tokens: 0 };
      return {
        runId,
        leaseToken,
        events: [{ type: 'usage' as const, payload: { ...usage } }],
        message: { id, threadId, runId, role: 'assistant' as const, content, toolCalls: null },
        usage,
      };
    };
    // A lost worker stored a reply its checkpoint never took; on resume it is dropped and made again.
    const lost = reply('lost');
    await store.appendRecord(lost);
    await store.deleteUncheckpointedReplies(runId, []);
    const again = reply('again');
    await store.appendRecord(again);
    expect(
      await ctx.dataSource.query(`SELECT content FROM messages WHERE run_id = $1 AND role = 'assistant'`, [
        runId,
      ]),
    ).toEqual([{ content: 'again' }]);
    expect((await usageRows(runId)).map((row) => row.id).sort()).toEqual(
      [lost.message.id, again.message.id].sort(),
    );
    expect(await dailyRow('resume-model')).toEqual({ input_tokens: '20', calls: '2' });
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(run.body.token_usage).toEqual({
      input_tokens: 20,
      output_tokens: 4,
      total_tokens: 24,
      cached_tokens: 0,
    });
  });

  it('records a summary call for a run once, apart from the run token_usage, inside the thread usage', async () => {
    const { runId, threadId } = await claimedRun();
    const store = ctx.app.get(RunStore);
    const callId = randomUUID();
    const summary = {
      runId,
      callId,
      purpose: 'summary' as const,
      usage: { model: 'summary-model', input_tokens: 900, output_tokens: 80, cached_tokens: 0 },
    };
    expect(await store.recordModelUsage(summary)).toBe(true);
    expect(await store.recordModelUsage(summary)).toBe(false);
    expect(await store.recordModelUsage({ ...summary, runId: randomUUID(), callId: randomUUID() })).toBe(
      false,
    );

    expect(await usageRows(runId)).toEqual([
      expect.objectContaining({ id: callId, purpose: 'summary', model: 'summary-model', input_tokens: 900 }),
    ]);
    expect(await dailyRow('summary-model')).toEqual({ input_tokens: '900', calls: '1' });
    const run = await ctx.http.get(`/api/runs/${runId}`).set(auth(user));
    expect(run.body.token_usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      cached_tokens: 0,
    });
    const thread = await ctx.http.get(`/api/threads/${threadId}/usage`).set(auth(user));
    expect(thread.body).toEqual({
      total: { input_tokens: 900, output_tokens: 80, cached_tokens: 0, calls: 1 },
      by_model: [
        { model: 'summary-model', input_tokens: 900, output_tokens: 80, cached_tokens: 0, calls: 1 },
      ],
    });
  });
});
