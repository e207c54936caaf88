import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { AppConfig } from '../../../config/app-config.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { quitRedis } from '../../../redis/quit-redis.js';
import { subscriberRedisOptions } from '../../../redis/redis-options.js';
import type { RunEvent } from './run-event.js';

export interface RunEventListener {
  /** Events published for the run (possibly out of order or with gaps: the listener catches up). */
  onEvents(events: RunEvent[]): void;
  /** The subscription was re-established after a Redis outage: events may have been missed. */
  onResync(): void;
}

/**
 * Live run events over Redis pub/sub: one channel per run, one subscriber connection per process
 * shared by every SSE stream (500 streams on 100 runs are 100 channels on one connection). Publishing
 * is best effort: the run-event table is the truth and streams catch up from it.
 */
@Injectable()
export class RunEventBus implements OnApplicationShutdown {
  private readonly logger = new Logger(RunEventBus.name);
  private subscriber: Redis | null = null;
  private readonly listeners = new Map<string, Set<RunEventListener>>();
  private readonly channelPrefix: string;

  constructor(
    private readonly publisher: RedisClient,
    private readonly config: AppConfig,
  ) {
    this.channelPrefix = `${config.redis.prefix}:run-events:`;
  }

  async publish(runId: string, events: RunEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.publisher.publish(this.channelPrefix + runId, JSON.stringify(events));
    } catch (error) {
      this.logger.warn({ run_id: runId, err: (error as Error).message }, 'run event publish failed');
    }
  }

  /** Starts delivering the run's live events to `listener`; resolves once the subscription is active. */
  async subscribe(runId: string, listener: RunEventListener): Promise<() => void> {
    const channel = this.channelPrefix + runId;
    let set = this.listeners.get(channel);
    const first = set === undefined;
    if (set === undefined) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    if (first) await this.connection().subscribe(channel);
    return () => this.unsubscribe(channel, listener);
  }

  /** Listeners currently subscribed in this process, over every run (what an open stream holds). */
  listenerCount(): number {
    let count = 0;
    for (const set of this.listeners.values()) count += set.size;
    return count;
  }

  async onApplicationShutdown(): Promise<void> {
    const subscriber = this.subscriber;
    this.subscriber = null;
    this.listeners.clear();
    if (subscriber !== null) await quitRedis(subscriber);
  }

  private unsubscribe(channel: string, listener: RunEventListener): void {
    const set = this.listeners.get(channel);
    if (set === undefined || !set.delete(listener) || set.size > 0) return;
    this.listeners.delete(channel);
    this.subscriber?.unsubscribe(channel).catch(() => undefined);
  }

  private connection(): Redis {
    if (this.subscriber !== null) return this.subscriber;
    const subscriber = new Redis(subscriberRedisOptions(this.config.redis.url.reveal()));
    let connectedBefore = false;
    subscriber.on('ready', () => {
      // ioredis re-subscribes by itself; what was published meanwhile is read back from the table.
      if (connectedBefore) for (const set of this.listeners.values()) for (const l of set) l.onResync();
      connectedBefore = true;
    });
    subscriber.on('error', (error: Error) =>
      this.logger.warn({ err: error.message }, 'run event subscriber error'),
    );
    subscriber.on('message', (channel: string, message: string) => {
      const set = this.listeners.get(channel);
      if (set === undefined) return;
      let events: RunEvent[];
      try {
        events = JSON.parse(message) as RunEvent[];
      } catch {
        return;
      }
      for (const listener of set) listener.onEvents(events);
    });
    this.subscriber = subscriber;
    return subscriber;
  }
}
