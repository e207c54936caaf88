import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { ImprovementMarksRetention } from '../../../src/modules/improvement-marks/retention/improvement-marks-retention';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from '../../../src/modules/maintenance/maintenance.queue';
import { TestContext, type TestUser } from '../../support/test-app';
import { insertMark } from './mark-rows';

/** IMPROVEMENT_MARKS_RETENTION_DAYS=30 here, so the boundary is easy to place. */
describe('improvement mark retention (maintenance queue, APP_ROLE=all)', () => {
  let ctx: TestContext;
  let user: TestUser;

  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'all', IMPROVEMENT_MARKS_RETENTION_DAYS: '30' });
    user = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  const remaining = async () =>
    (
      await ctx.dataSource.query<{ reason: string }[]>(
        `SELECT reason FROM improvement_marks WHERE user_id = $1 ORDER BY reason`,
        [user.id],
      )
    ).map((r) => r.reason);

  it('registers the daily purge schedule', async () => {
    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const schedulers = await queue.getJobSchedulers();
    const purge = schedulers.find((s) => s.key === MaintenanceJobs.purgeExpiredImprovementMarks);
    expect(purge).toMatchObject({
      name: MaintenanceJobs.purgeExpiredImprovementMarks,
      pattern: '37 3 * * *',
    });
  });

  it('deletes marks older than the retention period through a job run by the worker, and keeps the rest', async () => {
    await insertMark(ctx, { userId: user.id, reason: 'old 400 days', age: '400 days' });
    await insertMark(ctx, { userId: user.id, reason: 'old 31 days', age: '31 days' });
    await insertMark(ctx, { userId: user.id, reason: 'recent 29 days', age: '29 days' });
    await insertMark(ctx, { userId: user.id, reason: 'recent now' });

    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const job = await queue.add(MaintenanceJobs.purgeExpiredImprovementMarks, {});
    let state = await job.getState();
    for (let i = 0; i < 100 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    expect((await queue.getJob(job.id!))?.returnvalue).toEqual({ deleted: 2 });
    expect(await remaining()).toEqual(['recent 29 days', 'recent now']);
  });

  it('purges by the configured period by default, or by an explicit one', async () => {
    const retention = ctx.app.get(ImprovementMarksRetention);
    await insertMark(ctx, { userId: user.id, reason: 'old 45 days', age: '45 days' });
    expect(await retention.purgeExpired()).toBe(1);
    expect(await remaining()).toEqual(['recent 29 days', 'recent now']);
    expect(await retention.purgeExpired(10)).toBe(1);
    expect(await remaining()).toEqual(['recent now']);
    expect(await retention.purgeExpired(10)).toBe(0);
  });
});
