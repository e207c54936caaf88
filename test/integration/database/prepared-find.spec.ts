import { randomUUID } from 'node:crypto';
import { preparedFindOneBy } from '../../../src/database/prepared-find';
import { preparedQueryIn } from '../../../src/database/prepared-query';
import { RunEntity } from '../../../src/modules/agent-runtime/runs/run.entity';
import { AgentEntity } from '../../../src/modules/agents/agent.entity';
import { KnowledgeFileEntity } from '../../../src/modules/knowledge/storage/knowledge-file.entity';
import { ThreadEntity } from '../../../src/modules/threads/thread.entity';
import { newThread } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

describe('preparedFindOneBy', () => {
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start();
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('loads a run, a thread and an agent as TypeORM does, every column set', async () => {
    const threadId = await newThread(ctx, user);
    const runId = randomUUID();
    const child = randomUUID();
    await ctx.dataSource.query(
      `INSERT INTO runs (id, thread_id, user_id, agent_slug, agent_id, status, input, model, awaited_run_ids,
         awaiting_until, request_id, payload_digest, origin_request_id, resume_request_id, config_snapshot,
         lease_token, lease_expires_at, attempts, last_event_seq, error, token_usage, started_at, finished_at)
       SELECT $1, t.id, t.user_id, t.agent_slug, t.agent_id, 'failed', 'hello', 'm-1', ARRAY[$3::uuid],
         now(), 'req-1', repeat('a', 64), 'origin-1', 'resume-1', '{"model":"m-1","skills":["a"]}',
         $4, now(), 2, 7, '{"code":"x.y","message":"no"}', '{"input_tokens":3}', now(), now()
         FROM threads t WHERE t.id = $2`,
      [runId, threadId, child, randomUUID()],
    );
    const runs = ctx.dataSource.getRepository(RunEntity);
    const run = await preparedFindOneBy(runs, { id: runId });
    expect(run).toBeInstanceOf(RunEntity);
    expect(run).toEqual(await runs.findOneBy({ id: runId }));
    expect(run?.awaitedRunIds).toEqual([child]);
    expect(run?.createdAt).toBeInstanceOf(Date);
    expect(await preparedFindOneBy(runs, { id: runId, userId: user.id })).toEqual(run);
    expect(await preparedFindOneBy(runs, { id: runId, userId: randomUUID() })).toBeNull();

    const threads = ctx.dataSource.getRepository(ThreadEntity);
    const thread = await preparedFindOneBy(threads, { id: threadId, userId: user.id });
    expect(thread).toBeInstanceOf(ThreadEntity);
    expect(thread).toEqual(await threads.findOneBy({ id: threadId }));

    const agents = ctx.dataSource.getRepository(AgentEntity);
    const agent = await preparedFindOneBy(agents, { id: thread!.agentId! });
    expect(agent).toEqual(await agents.findOneBy({ id: thread!.agentId! }));
  });

  it('refuses an entity whose columns TypeORM transforms on the way (a bigint read as a number)', async () => {
    const files = ctx.dataSource.getRepository(KnowledgeFileEntity);
    await expect(preparedFindOneBy(files, { id: randomUUID() })).rejects.toThrow(
      "KnowledgeFileEntity.sizeBytes needs TypeORM's hydration",
    );
  });

  it("runs in the caller's transaction: on its connection, rolled back with it", async () => {
    const backend = 'SELECT pg_backend_pid() AS pid';
    const insert = `INSERT INTO workspace_usage (user_id, used_bytes, measured_at) VALUES ($1, 5, now())`;
    await expect(
      ctx.dataSource.transaction(async (manager) => {
        const [{ pid }] = await manager.query<{ pid: number }[]>(backend);
        expect(await preparedQueryIn(manager, backend, [])).toEqual([{ pid }]);
        await preparedQueryIn(manager, insert, [user.id]);
        const seen = await manager.query(`SELECT 1 FROM workspace_usage WHERE user_id = $1`, [user.id]);
        expect(seen).toHaveLength(1);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    const after = await ctx.dataSource.query(`SELECT 1 FROM workspace_usage WHERE user_id = $1`, [user.id]);
    expect(after).toEqual([]);
  });
});
