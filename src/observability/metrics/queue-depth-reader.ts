import { Injectable, Logger } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Queue } from 'bullmq';
import { QUEUE_STATES } from './metric-labels.js';
import type { QueueDepth } from './metric-series.js';

/** A scrape waits at most this long for a queue's counts; a slower queue is left out of that scrape. */
const READ_TIMEOUT_MS = 1_000;

type Counts = Record<string, number>;

/**
 * Job counts of the BullMQ queues this process knows (every `Queue` provider it has), read at scrape
 * time. A queue that fails or does not answer in time is logged and left out: a scrape never fails and
 * never waits long on a Redis that is down. A queue connection waits for Redis forever, so a read
 * still pending from an earlier scrape is not joined by another: Redis down, the reads do not pile up.
 */
@Injectable()
export class QueueDepthReader {
  private readonly logger = new Logger(QueueDepthReader.name);
  private queues: Queue[] | null = null;
  private readonly pending = new Map<string, Promise<Counts>>();

  constructor(private readonly discovery: DiscoveryService) {}

  async read(): Promise<QueueDepth[]> {
    const read = await Promise.all(this.knownQueues().map((queue) => this.readQueue(queue)));
    return read.flat();
  }

  private knownQueues(): Queue[] {
    // Every provider is instantiated before the first scrape can arrive; the list is then fixed.
    this.queues ??= [
      ...new Map(
        this.discovery
          .getProviders()
          .map((wrapper) => wrapper.instance as unknown)
          .filter((instance): instance is Queue => instance instanceof Queue)
          .map((queue) => [queue.name, queue]),
      ).values(),
    ];
    return this.queues;
  }

  private async readQueue(queue: Queue): Promise<QueueDepth[]> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const counts = await Promise.race([
        this.countsOf(queue),
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${READ_TIMEOUT_MS} ms`)),
            READ_TIMEOUT_MS,
          );
        }),
      ]);
      return QUEUE_STATES.map((state) => ({ queue: queue.name, state, jobs: counts[state] ?? 0 }));
    } catch (error) {
      this.logger.warn(
        { queue: queue.name, err: error instanceof Error ? error.message : String(error) },
        'queue depth not read for this scrape',
      );
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  private countsOf(queue: Queue): Promise<Counts> {
    if (this.pending.has(queue.name))
      return Promise.reject(new Error('the read of an earlier scrape is still pending'));
    const reading = queue.getJobCounts(...QUEUE_STATES);
    this.pending.set(queue.name, reading);
    const settled = () => void this.pending.delete(queue.name);
    reading.then(settled, settled);
    return reading;
  }
}
