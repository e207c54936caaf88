import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../../config/app-config.js';
import { RedisClient } from '../../../redis/redis-client.js';
import { RunsErrors } from '../runs/runs.errors.js';

/** One open stream's place in its user's count; `release` is idempotent. */
export interface StreamSlot {
  /** Called on each heartbeat: keeps the slot from lapsing. */
  refresh(): void;
  release(): Promise<void>;
}

/**
 * A sorted set per user: member = slot id, score = when the slot lapses (Redis server time, ms). Lapsed
 * slots (their process died without releasing them) are dropped before counting.
 */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

const REFRESH = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * The cap on run event streams a user holds open at once (`SSE_MAX_STREAMS_PER_USER`), counted in
 * Redis so it holds over every API process. A slot lives three heartbeats unless its stream refreshes
 * it, so a process that crashes frees its users' slots within that. While Redis is unreachable the
 * count falls back to this process (the cap then holds per process), as the login limiter does.
 */
@Injectable()
export class RunStreamSlots {
  private readonly logger = new Logger(RunStreamSlots.name);
  private readonly local = new Map<string, number>();

  constructor(
    private readonly redis: RedisClient,
    private readonly config: AppConfig,
  ) {}

  /** Takes a slot for one more stream of `userId`, or throws `runs.too_many_streams`. */
  async acquire(userId: string): Promise<StreamSlot> {
    const limit = this.config.runtime.sseMaxStreamsPerUser;
    const id = randomUUID();
    let taken: unknown;
    try {
      taken = await this.redis.eval(ACQUIRE, 1, this.key(userId), limit, this.ttlMs(), id);
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'stream slots falling back to process memory');
      return this.acquireLocal(userId, limit);
    }
    if (taken !== 1) throw RunsErrors.tooManyStreams(limit, this.config.runtime.sseHeartbeatSeconds);
    let released = false;
    return {
      refresh: () => {
        if (released) return;
        this.redis.eval(REFRESH, 1, this.key(userId), this.ttlMs(), id).catch(() => undefined);
      },
      release: async () => {
        if (released) return;
        released = true;
        await this.redis.zrem(this.key(userId), id).catch((error: Error) => {
          // The slot lapses by itself after its time to live.
          this.logger.warn({ err: error.message }, 'stream slot release failed');
        });
      },
    };
  }

  private acquireLocal(userId: string, limit: number): StreamSlot {
    const count = this.local.get(userId) ?? 0;
    if (count >= limit) throw RunsErrors.tooManyStreams(limit, this.config.runtime.sseHeartbeatSeconds);
    this.local.set(userId, count + 1);
    let released = false;
    return {
      refresh: () => undefined,
      release: () => {
        if (released) return Promise.resolve();
        released = true;
        const left = (this.local.get(userId) ?? 1) - 1;
        if (left > 0) this.local.set(userId, left);
        else this.local.delete(userId);
        return Promise.resolve();
      },
    };
  }

  private ttlMs(): number {
    return this.config.runtime.sseHeartbeatSeconds * 3_000;
  }

  private key(userId: string): string {
    return `sse-streams:${userId}`;
  }
}
