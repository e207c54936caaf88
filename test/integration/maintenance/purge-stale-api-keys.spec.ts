import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from '../../../src/modules/maintenance/maintenance.queue';
import { TestContext } from '../../support/test-app';

describe('maintenance worker (APP_ROLE=all)', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await TestContext.start({ APP_ROLE: 'all' });
  });
  afterAll(() => ctx.close());

  const insertKey = async (
    userId: string,
    name: string,
    revokedDaysAgo: number | null,
    expiredDaysAgo: number | null,
  ) => {
    const rows = await ctx.dataSource.query(
      `INSERT INTO api_keys (id, user_id, name, key_prefix, key_hash, request_id, payload_digest, revoked_at, expires_at)
       VALUES (gen_random_uuid(), $1, $2, 'yxk_00000000', encode(sha256(gen_random_uuid()::text::bytea), 'hex'),
               gen_random_uuid()::text, repeat('0', 64),
               CASE WHEN $3::int IS NULL THEN NULL ELSE now() - make_interval(days => $3::int) END,
               CASE WHEN $4::int IS NULL THEN NULL ELSE now() - make_interval(days => $4::int) END)
       RETURNING id`,
      [userId, name, revokedDaysAgo, expiredDaysAgo],
    );
    return rows[0].id as string;
  };

  it('registers the daily purge schedule', async () => {
    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key)).toContain(MaintenanceJobs.purgeStaleApiKeys);
  });

  it('deletes keys revoked or expired long ago through a job run by the worker, and keeps the rest', async () => {
    const user = await ctx.newUser();
    const oldRevoked = await insertKey(user.id, 'old revoked', 120, null);
    const oldExpired = await insertKey(user.id, 'old expired', null, 100);
    const recentRevoked = await insertKey(user.id, 'recent revoked', 3, null);
    const active = await insertKey(user.id, 'active', null, null);

    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const job = await queue.add(MaintenanceJobs.purgeStaleApiKeys, {});
    let state = await job.getState();
    for (let i = 0; i < 100 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    const finished = await queue.getJob(job.id!);
    expect(finished?.returnvalue).toEqual({ deleted: 2 });

    const left = (await ctx.dataSource.query(`SELECT id FROM api_keys WHERE user_id = $1`, [user.id])).map(
      (r: { id: string }) => r.id,
    );
    expect(left.sort()).toEqual([recentRevoked, active].sort());
    expect(left).not.toContain(oldRevoked);
    expect(left).not.toContain(oldExpired);
  });
});
