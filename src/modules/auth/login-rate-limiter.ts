import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { RedisClient } from '../../redis/redis-client.js';

const WINDOW_SECONDS = 60;

/**
 * Failed logins per client IP in a fixed one-minute window, counted in Redis so every API replica
 * sees the same count. While Redis is unreachable it counts in this process instead of failing open.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly logger = new Logger(LoginRateLimiter.name);
  private readonly local = new Map<string, { count: number; resetAt: number }>();

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisClient,
  ) {}

  /** Seconds to wait when the IP is over the limit, otherwise null. */
  async blockedFor(ip: string): Promise<number | null> {
    const limit = this.config.auth.loginMaxFailuresPerMinute;
    try {
      const [count, ttl] = await Promise.all([this.redis.get(this.key(ip)), this.redis.ttl(this.key(ip))]);
      if (count !== null && Number(count) >= limit) return ttl > 0 ? ttl : WINDOW_SECONDS;
      return null;
    } catch (error) {
      this.warn(error);
      const entry = this.localEntry(ip);
      return entry !== null && entry.count >= limit ? Math.ceil((entry.resetAt - Date.now()) / 1000) : null;
    }
  }

  async recordFailure(ip: string): Promise<void> {
    try {
      const result = await this.redis
        .multi()
        .incr(this.key(ip))
        .expire(this.key(ip), WINDOW_SECONDS, 'NX')
        .exec();
      if (result === null) throw new Error('transaction aborted');
    } catch (error) {
      this.warn(error);
      const entry = this.localEntry(ip) ?? { count: 0, resetAt: Date.now() + WINDOW_SECONDS * 1000 };
      entry.count += 1;
      this.local.set(ip, entry);
    }
  }

  private localEntry(ip: string): { count: number; resetAt: number } | null {
    const entry = this.local.get(ip);
    if (entry === undefined) return null;
    if (entry.resetAt <= Date.now()) {
      this.local.delete(ip);
      return null;
    }
    return entry;
  }

  private key(ip: string): string {
    return `login-failures:${ip}`;
  }

  private warn(error: unknown): void {
    this.logger.warn({ err: (error as Error).message }, 'login rate limiter falling back to process memory');
  }
}
