import { randomUUID } from 'node:crypto';
import { RunEventStore } from '../../../src/modules/agent-runtime/events/run-event-store';
import { RunEvents } from '../../../src/modules/agent-runtime/events/run-events';
import { RunTransitions } from '../../../src/modules/agent-runtime/runs/run-transitions';
import { RunEntity } from '../../../src/modules/agent-runtime/runs/run.entity';
import { RUN_ROW_COLUMNS } from '../../../src/modules/agent-runtime/runs/run-sql';
import { entityColumns } from '../../../src/database/prepared-find';
import { ThreadEntity } from '../../../src/modules/threads/thread.entity';
import { newThread, startRun } from '../../support/runs/run-helpers';
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
        },
        { id: messageId, threadId, runId, role: 'user', content: "it's \\ the input" },
        { headsThread: true },
      ),
    );

    const loaded = await ctx.dataSource.getRepository(RunEntity).findOneByOrFail({ id: runId });
    expect(created.run).toBeInstanceOf(RunEntity);
    expect(created.run).toEqual(loaded);
    expect(loaded).toMatchObject({ status: 'queued', attempts: 0, lastEventSeq: 1, model: 'model-x' });
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
});
