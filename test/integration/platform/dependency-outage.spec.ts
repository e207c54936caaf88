import { InjectQueue, BullModule } from '@nestjs/bullmq';
import { Controller, Module, Post } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { Public } from '../../../src/common/auth/auth.decorators';
import { enqueueOrFail } from '../../../src/queue/enqueue-or-fail';
import { RedisClient } from '../../../src/redis/redis-client';
import { TcpProxy } from '../../support/tcp-proxy';
import { TestContext } from '../../support/test-app';
import { TEST_PG_ADMIN_URL, TEST_REDIS_URL } from '../../support/test-env';

@Controller('probe')
class EnqueueProbeController {
  constructor(
    private readonly redis: RedisClient,
    @InjectQueue('probe') private readonly queue: Queue,
  ) {}

  @Public()
  @Post('enqueue')
  async enqueue(): Promise<{ job_id: string }> {
    const job = await enqueueOrFail(this.redis, this.queue, 'probe-job', { at: Date.now() });
    return { job_id: String(job.id) };
  }
}

@Module({ imports: [BullModule.registerQueue({ name: 'probe' })], controllers: [EnqueueProbeController] })
class EnqueueProbeModule {}

describe('when a dependency is down', () => {
  let ctx: TestContext;
  let redisProxy: TcpProxy;
  let pgProxy: TcpProxy;

  beforeAll(async () => {
    const redis = new URL(TEST_REDIS_URL);
    const pg = new URL(TEST_PG_ADMIN_URL);
    redisProxy = await new TcpProxy(redis.hostname, Number(redis.port || 6379)).start();
    pgProxy = await new TcpProxy(pg.hostname, Number(pg.port || 5432)).start();
    ctx = await TestContext.start(
      (base) => {
        const databaseUrl = new URL(base.DATABASE_URL);
        databaseUrl.host = `127.0.0.1:${pgProxy.port}`;
        return { REDIS_URL: `redis://127.0.0.1:${redisProxy.port}/0`, DATABASE_URL: databaseUrl.toString() };
      },
      [EnqueueProbeModule],
    );
  });
  afterAll(async () => {
    await redisProxy.restore();
    await pgProxy.restore();
    await ctx.close();
    await redisProxy.stop();
    await pgProxy.stop();
  });

  it('enqueues while Redis is up', async () => {
    const res = await ctx.http.post('/api/probe/enqueue');
    expect(res.status).toBe(201);
    const queue = ctx.app.get<Queue>('BullQueue_probe');
    const job = await queue.getJob(res.body.job_id);
    expect(job?.name).toBe('probe-job');
  });

  it('answers 503 common.dependency_unavailable at once, not a hang, when Redis is down', async () => {
    await redisProxy.cut();
    const started = Date.now();
    const res = await ctx.http.post('/api/probe/enqueue');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'common.dependency_unavailable',
      details: { dependency: 'redis' },
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    await redisProxy.restore();
  });

  it('answers 503 when PostgreSQL is unreachable, and serves again once it is back', async () => {
    const user = await ctx.newUser();
    await pgProxy.cut();
    const started = Date.now();
    const res = await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${user.token}`);
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({
      code: 'common.dependency_unavailable',
      details: { dependency: 'database' },
    });
    expect(Date.now() - started).toBeLessThan(6_000);
    const health = await ctx.http.get('/api/health');
    expect(health.status).toBe(503);
    expect(health.body.checks.database.status).toBe('down');

    await pgProxy.restore();
    let status = 0;
    for (let i = 0; i < 30 && status !== 200; i++) {
      status = (await ctx.http.get('/api/auth/me').set('Authorization', `Bearer ${user.token}`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
