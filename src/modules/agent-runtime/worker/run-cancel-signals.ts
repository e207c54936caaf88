import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../../../config/app-config.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { quitRedis } from '../../../redis/quit-redis.js';
import { subscriberRedisOptions } from '../../../redis/redis-options.js';

/**
 * Cancel requests from the API to whichever worker holds the run, over one Redis channel. Best effort:
 * a worker also sees `cancel_requested` at its next lease heartbeat.
 */
@Injectable()
export class RunCancelSignals implements OnApplicationShutdown {
  private readonly logger = new Logger(RunCancelSignals.name);
  private readonly channel: string;
  private subscriber: Redis | null = null;

  constructor(
    private readonly publisher: RedisClient,
    private readonly config: AppConfig,
  ) {
    this.channel = `${config.redis.prefix}:run-cancel`;
  }

  async request(runId: string): Promise<void> {
    await this.publisher.publish(this.channel, runId).catch((error: Error) => {
      this.logger.warn({ run_id: runId, err: error.message }, 'cancel signal not published');
    });
  }

  /** Worker side: `onCancel` is called with the id of each run whose cancellation was requested. */
  async listen(onCancel: (runId: string) => void): Promise<void> {
    if (this.subscriber !== null) throw new Error('already listening for cancel signals');
    const subscriber = new Redis(subscriberRedisOptions(this.config.redis.url.reveal()));
    subscriber.on('error', (error: Error) =>
      this.logger.warn({ err: error.message }, 'cancel listener error'),
    );
    subscriber.on('message', (_channel: string, runId: string) => onCancel(runId));
    this.subscriber = subscriber;
    await subscriber.subscribe(this.channel);
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    if (subscriber !== null) await quitRedis(subscriber);
  }
}
