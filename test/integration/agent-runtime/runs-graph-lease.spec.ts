import { emptyCheckpoint } from '@langchain/langgraph-checkpoint';
import { randomUUID } from 'node:crypto';
import { poolOf } from '../../../src/database/prepared-query';
import { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import { RunStore } from '../../../src/modules/agent-runtime/runs/run-store';
import { RunEvents } from '../../../src/modules/agent-runtime/events/run-events';
import { BatchedPostgresSaver } from '../../../src/modules/agent-runtime/graph/batched-postgres-saver';
import { RunTransitions } from '../../../src/modules/agent-runtime/runs/run-transitions';
import { RunAuthorization } from '../../../src/modules/agent-runtime/assembly/run-authorization';
import { LeaseLostError } from '../../../src/modules/agent-runtime/runs/runs.errors';
import { RunAuthorizationRevokedError } from '../../../src/modules/tools/tools.errors';
import { storedEvents } from '../../support/runs/run-event-rows';
import { newThread, startRun } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

interface LeaseRow {
  status: string;
  lease_token: string | null;
  attempts: number;
  last_event_seq: number;
  config_snapshot: unknown;
  token_usage: unknown;
  error: { code: string; message: string } | null;
  finished_at: Date | null;
}

/** The API role only: no worker claims or recovers runs behind the test's back. */
describe('execution lease fencing (service level)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let transitions: RunTransitions;
  let store: RunEventStore;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api', RUN_MAX_ATTEMPTS: '2' });
    user = await ctx.newUser();
    transitions = ctx.app.get(RunTransitions);
    store = ctx.app.get(RunEventStore);
  });

  afterAll(async () => {
    await ctx.close();
  });

  async function leaseRow(runId: string): Promise<LeaseRow> {
    const [row] = await ctx.dataSource.query<LeaseRow[]>(
      `SELECT status, lease_token, attempts, last_event_seq, config_snapshot, token_usage, error, finished_at
         FROM runs WHERE id = $1`,
      [runId],
    );
    return row;
  }

  const expireLease = (runId: string) =>
    ctx.dataSource.query(`UPDATE runs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [
      runId,
    ]);

  it('refuses every write of a stale lease holder, and fails the run with runs.worker_lost after the last claim', async () => {
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'lease me' });
    const run = { id: runId, threadId, agentSlug: 'default-chatbot' };
    const [tokenA, tokenB] = [randomUUID(), randomUUID()];

    expect((await transitions.claim(runId, tokenA)).kind).toBe('claimed');
    expect(await transitions.heartbeat(runId, tokenA)).toBe('running');
    // A live lease is neither recovered nor claimed again.
    expect(await transitions.recoverExpired(runId)).toBeNull();
    expect((await transitions.claim(runId, tokenB)).kind).toBe('not_claimable');

    await expireLease(runId);
    expect(await transitions.recoverExpired(runId)).toBe('queued');
    expect(await leaseRow(runId)).toMatchObject({ status: 'queued', lease_token: null, attempts: 1 });
    expect((await transitions.claim(runId, tokenB)).kind).toBe('claimed');
    const held = await leaseRow(runId);
    expect(held).toMatchObject({ status: 'running', lease_token: tokenB, attempts: 2 });
    const eventsHeld = await storedEvents(ctx, runId);

    // Worker A wakes up: nothing it does lands.
    expect(await transitions.finish(run, tokenA, { status: 'completed' })).toBe(false);
    expect(await transitions.heartbeat(runId, tokenA)).toBeNull();
    expect(
      await store.append({
        runId,
        events: [{ type: 'message_delta', payload: { delta: 'stale' } }],
        fence: { leaseToken: tokenA },
      }),
    ).toBeNull();
    await expect(
      ctx.app
        .get(RunEvents)
        .emit({ runId, events: [{ type: 'message', payload: {} }], fence: { leaseToken: tokenA } }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await ctx.app.get(RunStore).saveSnapshot(runId, tokenA, { stale: true } as never)).toBe(false);
    // A model's reply with its token usage, as the runtime records it.
    await expect(
      ctx.app.get(RunEvents).emit({
        runId,
        events: [{ type: 'message', payload: {} }],
        fence: { leaseToken: tokenA },
        message: { id: randomUUID(), threadId, runId, role: 'assistant', content: 'stale', toolCalls: null },
        usage: { model: 'stale-model', input_tokens: 5, output_tokens: 5, cached_tokens: 0 },
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    // A message stored with the events that announce it (how the runtime records model and tool replies).
    await expect(
      ctx.app.get(RunEvents).emit({
        runId,
        events: [{ type: 'message', payload: {} }],
        fence: { leaseToken: tokenA },
        message: { id: randomUUID(), threadId, runId, role: 'assistant', content: 'stale', toolCalls: null },
      }),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect(await transitions.release(run, tokenA)).toBe(false);

    expect(await leaseRow(runId)).toEqual(held);
    expect(await storedEvents(ctx, runId)).toEqual(eventsHeld);
    expect(
      await ctx.dataSource.query<unknown[]>(
        `SELECT 1 FROM messages WHERE run_id = $1 AND role = 'assistant'`,
        [runId],
      ),
    ).toEqual([]);

    // Worker B, the holder, still writes.
    expect(await transitions.heartbeat(runId, tokenB)).toBe('running');
    const appended = await store.append({
      runId,
      events: [{ type: 'message_delta', payload: { delta: 'fresh' } }],
      fence: { leaseToken: tokenB },
    });
    expect(appended?.map((e) => e.seq)).toEqual([eventsHeld.length + 1]);

    // B's lease expires too: RUN_MAX_ATTEMPTS (2) claims are used up.
    await expireLease(runId);
    expect(await transitions.recoverExpired(runId)).toBe('failed');
    const failed = await leaseRow(runId);
    expect(failed).toMatchObject({
      status: 'failed',
      lease_token: null,
      error: { code: 'runs.worker_lost' },
    });
    expect(failed.finished_at).not.toBeNull();
    expect(await transitions.finish(run, tokenB, { status: 'completed' })).toBe(false);
    expect((await leaseRow(runId)).status).toBe('failed');

    const events = await storedEvents(ctx, runId);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => [e.type, e.type === 'error' ? e.payload.code : e.payload.status])).toEqual([
      ['status', 'queued'],
      ['status', 'running'],
      ['status', 'queued'],
      ['status', 'running'],
      ['message_delta', undefined],
      ['error', 'runs.worker_lost'],
      ['status', 'failed'],
      ['done', 'failed'],
    ]);
    const got = await ctx.http.get(`/api/runs/${runId}`).set({ authorization: `Bearer ${user.token}` });
    expect(got.body).toMatchObject({ status: 'failed', error: { code: 'runs.worker_lost' } });
  });

  it('honours a cancel request when the lease of a cancel_requested run expires', async () => {
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'cancel me' });
    expect((await transitions.claim(runId, randomUUID())).kind).toBe('claimed');
    expect(await transitions.cancel(runId)).toBe('cancel_requested');
    await expireLease(runId);
    expect(await transitions.recoverExpired(runId)).toBe('cancelled');
    const events = await storedEvents(ctx, runId);
    expect(events.slice(-2).map((e) => [e.type, e.payload])).toEqual([
      ['status', { status: 'cancelled' }],
      ['done', { status: 'cancelled' }],
    ]);
    expect((await leaseRow(runId)).error).toBeNull();
  });

  it('meets a stale lease holder with the one lease-lost error at every fenced write, which ends the run', async () => {
    const threadId = await newThread(ctx, user);
    const { run_id: runId } = await startRun(ctx, user, threadId, { input: 'one error' });
    const [stale, current] = [randomUUID(), randomUUID()];
    expect((await transitions.claim(runId, stale)).kind).toBe('claimed');
    await expireLease(runId);
    expect(await transitions.recoverExpired(runId)).toBe('queued');
    expect((await transitions.claim(runId, current)).kind).toBe('claimed');
    const [row] = await ctx.dataSource.query<{ agent_id: string; agent_slug: string }[]>(
      `SELECT agent_id, agent_slug FROM runs WHERE id = $1`,
      [runId],
    );
    const subject = { userId: user.id, agentId: row.agent_id, agentSlug: row.agent_slug };
    const authorization = ctx.app.get(RunAuthorization, { strict: false });
    const writes: [string, () => Promise<unknown>][] = [
      [
        'event',
        () =>
          ctx.app
            .get(RunEvents)
            .emit({ runId, events: [{ type: 'message', payload: {} }], fence: { leaseToken: stale } }),
      ],
      [
        'message with its events',
        () =>
          ctx.app.get(RunEvents).emit({
            runId,
            events: [{ type: 'message', payload: {} }],
            fence: { leaseToken: stale },
            message: {
              id: randomUUID(),
              threadId,
              runId,
              role: 'assistant',
              content: 'stale',
              toolCalls: null,
            },
          }),
      ],
      ['authorization re-check', () => authorization.verify(runId, stale, subject)],
      [
        'mark write check',
        () => ctx.dataSource.transaction((manager) => authorization.holdLeaseIn(manager, runId, stale)),
      ],
    ];
    // A step's record with the checkpoint after it (the saver as the worker's, on its own schema here).
    await ctx.dataSource.query(`CREATE SCHEMA lg_lease`);
    const saver = new BatchedPostgresSaver(poolOf(ctx.dataSource), 'lg_lease');
    await saver.setup();
    const checkpointConfig = { configurable: { thread_id: threadId, checkpoint_ns: '' } };
    writes.push([
      'message with its checkpoint',
      () => {
        const companion = ctx.app.get(RunEvents).checkpointCompanion({
          runId,
          events: [{ type: 'message', payload: {} }],
          leaseToken: stale,
          message: {
            id: randomUUID(),
            threadId,
            runId,
            role: 'assistant',
            content: 'stale',
            toolCalls: null,
          },
        });
        expect(saver.attach(threadId, companion)).toBe(true);
        return saver.put(checkpointConfig, emptyCheckpoint(), { source: 'loop', step: 0, parents: {} }, {});
      },
    ]);
    for (const [write, attempt] of writes) {
      const error: unknown = await attempt().then(
        () => null,
        (thrown: unknown) => thrown,
      );
      // One class for all of them; a RunAuthorizationRevokedError, so the ToolExecutor lets it end the run.
      expect({ write, leaseLost: error instanceof LeaseLostError }).toEqual({ write, leaseLost: true });
      expect(error).toBeInstanceOf(RunAuthorizationRevokedError);
      expect(error).toMatchObject({ code: 'runs.lease_lost', runId });
    }
    expect(await leaseRow(runId)).toMatchObject({ status: 'running', lease_token: current });
    // Nothing of the stale step was kept: no message, and no checkpoint for the thread.
    const kept = await ctx.dataSource.query<{ messages: number; checkpoints: number }[]>(
      `SELECT (SELECT count(*)::int FROM messages WHERE run_id = $1 AND content = 'stale') AS messages,
              (SELECT count(*)::int FROM lg_lease.checkpoints WHERE thread_id = $2) AS checkpoints`,
      [runId, threadId],
    );
    expect(kept).toEqual([{ messages: 0, checkpoints: 0 }]);
    expect(await saver.getTuple(checkpointConfig)).toBeUndefined();
  });
});
