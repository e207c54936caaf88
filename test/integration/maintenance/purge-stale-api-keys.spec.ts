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

  const runPurge = async () => {
    const queue = ctx.app.get<Queue>(getQueueToken(MAINTENANCE_QUEUE));
    const job = await queue.add(MaintenanceJobs.purgeStaleApiKeys, {});
    let state = await job.getState();
    for (let i = 0; i < 100 && state !== 'completed' && state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      state = await job.getState();
    }
    expect(state).toBe('completed');
    return (await queue.getJob(job.id!))?.returnvalue as { deleted: number };
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

  it('never brings a revoked key back: a replay of its request_id answers 409 before and after the purge', async () => {
    const user = await ctx.newUser();
    const bearer = { Authorization: `Bearer ${user.token}` };
    const body = { name: 'ci', request_id: 'req-revoked' };
    const created = await ctx.http.post('/api/api-keys').set(bearer).send(body);
    expect(created.status).toBe(201);
    expect((await ctx.http.delete(`/api/api-keys/${created.body.id}`).set(bearer)).status).toBe(204);

    const beforePurge = await ctx.http.post('/api/api-keys').set(bearer).send(body);
    expect(beforePurge.status).toBe(409);
    expect(beforePurge.body).toMatchObject({
      code: 'api_keys.revoked',
      details: { request_id: 'req-revoked' },
    });
    expect(JSON.stringify(beforePurge.body)).not.toContain(created.body.key);

    await ctx.dataSource.query(`UPDATE api_keys SET revoked_at = now() - interval '120 days' WHERE id = $1`, [
      created.body.id,
    ]);
    expect((await runPurge()).deleted).toBeGreaterThanOrEqual(1);
    expect(await ctx.dataSource.query(`SELECT id FROM api_keys WHERE id = $1`, [created.body.id])).toEqual(
      [],
    );
    const [tombstone] = await ctx.dataSource.query(
      `SELECT * FROM api_key_tombstones WHERE user_id = $1 AND request_id = 'req-revoked'`,
      [user.id],
    );
    expect(tombstone).toMatchObject({ key_id: created.body.id });
    expect(JSON.stringify(tombstone)).not.toContain(created.body.key);

    const afterPurge = await ctx.http.post('/api/api-keys').set(bearer).send(body);
    expect(afterPurge.status).toBe(409);
    expect(afterPurge.body.code).toBe('api_keys.revoked');
    expect(await ctx.dataSource.query(`SELECT id FROM api_keys WHERE id = $1`, [created.body.id])).toEqual(
      [],
    );
    const me = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${created.body.key}`);
    expect(me.status).toBe(401);

    // The tombstone outlives later purges, and another user's same request_id is unaffected.
    await runPurge();
    expect((await ctx.http.post('/api/api-keys').set(bearer).send(body)).status).toBe(409);
    const other = await ctx.newUser();
    const otherKey = await ctx.http
      .post('/api/api-keys')
      .set({ Authorization: `Bearer ${other.token}` })
      .send(body);
    expect(otherKey.status).toBe(201);
  });
});
