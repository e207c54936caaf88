import { randomUUID } from 'node:crypto';
import { ModelUsage1796041000000 } from '../../../migrations/1796041000000-ModelUsage';
import { auth, newThread } from '../../support/runs/run-helpers';
import { TestContext, type TestUser } from '../../support/test-app';

/** The ModelUsage migration run again over runs an older version counted in `runs.token_usage`. */
describe('migration ModelUsage: runs.token_usage becomes model_usage rows', () => {
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'api' });
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('turns each counted run into one agent call of its model, dated when it ended, with its day rolled up', async () => {
    const threadId = await newThread(ctx, user);
    const [counted, uncounted, noModel] = [randomUUID(), randomUUID(), randomUUID()];
    const insertRun = (id: string, model: string | null, usage: object | null, finishedAt: string | null) =>
      ctx.dataSource.query(
        `INSERT INTO runs (id, thread_id, user_id, agent_slug, agent_id, status, input, model, token_usage,
                           created_at, finished_at)
         SELECT $1, t.id, t.user_id, t.agent_slug, t.agent_id, 'completed', 'old run', $3, $4,
                '2026-02-01T10:00:00Z', $5
           FROM threads t WHERE t.id = $2`,
        [id, threadId, model, usage === null ? null : JSON.stringify(usage), finishedAt],
      );
    await insertRun(
      counted,
      'old-model',
      { input_tokens: 30, output_tokens: 9, total_tokens: 39 },
      '2026-02-01T23:59:00Z',
    );
    await insertRun(uncounted, 'old-model', null, null);
    await insertRun(noModel, null, { input_tokens: 5, output_tokens: 1, total_tokens: 6 }, null);

    const runner = ctx.dataSource.createQueryRunner();
    try {
      const migration = new ModelUsage1796041000000();
      await migration.down(runner);
      await migration.up(runner);
    } finally {
      await runner.release();
    }

    const rows = await ctx.dataSource.query<Record<string, unknown>[]>(
      `SELECT id, run_id, model, purpose, input_tokens, output_tokens, cached_tokens, created_at
         FROM model_usage WHERE thread_id = $1 ORDER BY input_tokens DESC`,
      [threadId],
    );
    expect(rows).toEqual([
      {
        id: counted,
        run_id: counted,
        model: 'old-model',
        purpose: 'agent',
        input_tokens: 30,
        output_tokens: 9,
        cached_tokens: 0,
        created_at: new Date('2026-02-01T23:59:00Z'),
      },
      {
        id: noModel,
        run_id: noModel,
        model: 'unknown',
        purpose: 'agent',
        input_tokens: 5,
        output_tokens: 1,
        cached_tokens: 0,
        created_at: new Date('2026-02-01T10:00:00Z'),
      },
    ]);
    const run = await ctx.http.get(`/api/runs/${counted}`).set(auth(user));
    expect(run.body.token_usage).toEqual({
      input_tokens: 30,
      output_tokens: 9,
      total_tokens: 39,
      cached_tokens: 0,
    });
    const report = await ctx.http
      .get('/api/usage?group_by=day&since=2026-02-01T00:00:00Z&until=2026-02-02T00:00:00Z')
      .set(auth(user));
    expect(report.body.items).toEqual([
      { key: '2026-02-01', input_tokens: 35, output_tokens: 10, cached_tokens: 0, calls: 2 },
    ]);
  });
});
