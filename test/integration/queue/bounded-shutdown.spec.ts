import { BullModule, getQueueToken, Processor, WorkerHost } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import type { Job, Queue } from 'bullmq';
import { TestContext } from '../../support/test-app';

const started: string[] = [];

@Processor('stuck')
class StuckProcessor extends WorkerHost {
  process(job: Job): Promise<void> {
    started.push(String(job.id));
    return new Promise(() => undefined); // never settles: a job that ignores shutdown
  }
}

@Module({ imports: [BullModule.registerQueue({ name: 'stuck' })], providers: [StuckProcessor] })
class StuckModule {}

describe('graceful shutdown with a job that never finishes', () => {
  it('closes the app within SHUTDOWN_GRACE_SECONDS plus a small bound', async () => {
    const ctx = await TestContext.start({ APP_ROLE: 'all', SHUTDOWN_GRACE_SECONDS: '1' }, [StuckModule]);
    const queue = ctx.app.get<Queue>(getQueueToken('stuck'));
    const job = await queue.add('forever', {});
    for (let i = 0; i < 100 && !started.includes(String(job.id)); i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(started).toContain(String(job.id));
    expect(await job.getState()).toBe('active');

    const closing = Date.now();
    await ctx.close();
    expect(Date.now() - closing).toBeLessThan(1_000 + 2_000 + 1_500);
    // A forced close leaves ioredis' 2 s disconnect timer on the blocking connection: let it run out so
    // the Jest worker can exit cleanly (a real process exits by the signal anyway).
    await new Promise((r) => setTimeout(r, 2_100));
  });
});
