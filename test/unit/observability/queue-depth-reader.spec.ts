import type { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import { QueueDepthReader } from '../../../src/observability/metrics/queue-depth-reader';

/** A `Queue` (for `instanceof`) whose counts come from `counts`, with no Redis behind it. */
function fakeQueue(name: string, counts: () => Promise<Record<string, number>>): Queue {
  const queue = Object.create(Queue.prototype) as Queue;
  Object.defineProperty(queue, 'name', { value: name });
  queue.getJobCounts = jest.fn(counts);
  return queue;
}

function readerOf(...queues: Queue[]): QueueDepthReader {
  const discovery = {
    getProviders: () => [...queues, { not: 'a queue' }].map((instance) => ({ instance })),
  } as unknown as DiscoveryService;
  return new QueueDepthReader(discovery);
}

describe('QueueDepthReader', () => {
  it('reads each queue once by name, and leaves out a queue that fails or does not answer in time', async () => {
    const ok = fakeQueue('runs', () => Promise.resolve({ waiting: 3, active: 1, delayed: 0, failed: 2 }));
    const twin = fakeQueue('runs', () => Promise.resolve({ waiting: 99 }));
    const broken = fakeQueue('broken', () => Promise.reject(new Error('READONLY')));
    let answer: (counts: Record<string, number>) => void = () => undefined;
    const hung = fakeQueue('hung', () => new Promise((resolve) => (answer = resolve)));
    const reader = readerOf(ok, twin, broken, hung);

    const started = Date.now();
    const first = await reader.read();
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(first).toEqual([
      { queue: 'runs', state: 'waiting', jobs: 99 },
      { queue: 'runs', state: 'active', jobs: 0 },
      { queue: 'runs', state: 'delayed', jobs: 0 },
      { queue: 'runs', state: 'failed', jobs: 0 },
    ]);
    expect(twin.getJobCounts).toHaveBeenCalledWith('waiting', 'active', 'delayed', 'failed');
    expect(ok.getJobCounts).not.toHaveBeenCalled();

    // The hung read is still pending: the next scrape does not start another one.
    const second = await reader.read();
    expect(second.map((d) => d.queue)).toEqual(['runs', 'runs', 'runs', 'runs']);
    expect(hung.getJobCounts).toHaveBeenCalledTimes(1);

    // Once it settled, the queue is read again.
    answer({ waiting: 5 });
    await new Promise((resolve) => setImmediate(resolve));
    (hung.getJobCounts as jest.Mock).mockImplementation(() => Promise.resolve({ waiting: 6 }));
    const third = await reader.read();
    expect(third).toContainEqual({ queue: 'hung', state: 'waiting', jobs: 6 });
    expect(third.filter((d) => d.queue === 'broken')).toEqual([]);
  });
});
