import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config.js';
import { RedisClient } from '../../redis/redis-client.js';

const WINDOW_SECONDS = 60;
/** Past this many IPs in memory, ended windows are dropped before a new one is added. */
const LOCAL_SWEEP_THRESHOLD = 10_000;

/**
 * Takes one attempt if the window has room: returns [1, 0], or [0, ttl] when it is full (the refused
 * attempt is not counted). The window starts with the first attempt of the minute.
 */
const RESERVE_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('EXPIRE', KEYS[1], ARGV[2]) end
if count > tonumber(ARGV[1]) then
  redis.call('DECR', KEYS[1])
  return {0, redis.call('TTL', KEYS[1])}
end
return {1, 0}`;

/** Gives an attempt back, unless its window has already ended (never leaves a key without expiry). */
const RELEASE_SCRIPT = `
if redis.call('EXISTS', KEYS[1]) == 1 and tonumber(redis.call('GET', KEYS[1])) > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0`;

export type LoginAttempt =
  | {
      allowed: true;
      /** Gives the attempt back: call it when the login did not fail. */ release(): Promise<void>;
    }
  | { allowed: false; retryAfterSeconds: number };

interface LocalWindow {
  count: number;
  resetAt: number;
}

/**
 * Login attempts per client IP in a fixed one-minute window. An attempt is reserved (atomically, in one
 * Redis script) before the password is checked, so a burst of parallel guesses cannot all pass a check
 * made before any was counted; a login that does not fail gives its reservation back, so what the window
 * keeps counting are the failures (and the attempts still in flight). Counted in Redis so every API
 * replica sees the same count; while Redis is unreachable it counts in this process, where a reservation
 * is a synchronous step and just as atomic.
 */
@Injectable()
export class LoginRateLimiter {
  private readonly logger = new Logger(LoginRateLimiter.name);
  private readonly local = new Map<string, LocalWindow>();

  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisClient,
  ) {}

  async reserve(ip: string): Promise<LoginAttempt> {
    const limit = this.config.auth.loginMaxFailuresPerMinute;
    let reply: [number, number];
    try {
      reply = (await this.redis.eval(RESERVE_SCRIPT, 1, this.key(ip), limit, WINDOW_SECONDS)) as [
        number,
        number,
      ];
    } catch (error) {
      this.warn(error);
      return this.reserveLocally(ip, limit);
    }
    const [allowed, ttl] = reply;
    if (allowed !== 1) return { allowed: false, retryAfterSeconds: ttl > 0 ? ttl : WINDOW_SECONDS };
    return { allowed: true, release: () => this.releaseInRedis(ip) };
  }

  private async releaseInRedis(ip: string): Promise<void> {
    try {
      await this.redis.eval(RELEASE_SCRIPT, 1, this.key(ip));
    } catch (error) {
      // The reservation then counts as a failure until its window ends: it errs on the safe side.
      this.logger.warn({ err: (error as Error).message }, 'could not give a login attempt back');
    }
  }

  private reserveLocally(ip: string, limit: number): LoginAttempt {
    const now = Date.now();
    if (this.local.size > LOCAL_SWEEP_THRESHOLD) this.sweepLocal(now);
    let window = this.local.get(ip);
    if (window === undefined || window.resetAt <= now) {
      window = { count: 0, resetAt: now + WINDOW_SECONDS * 1000 };
      this.local.set(ip, window);
    }
    if (window.count >= limit) {
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((window.resetAt - now) / 1000)) };
    }
    window.count += 1;
    const reserved = window;
    return {
      allowed: true,
      release: () => {
        if (this.local.get(ip) === reserved && reserved.count > 0) reserved.count -= 1;
        return Promise.resolve();
      },
    };
  }

  private sweepLocal(now: number): void {
    for (const [ip, window] of this.local) if (window.resetAt <= now) this.local.delete(ip);
  }

  private key(ip: string): string {
    return `login-failures:${ip}`;
  }

  private warn(error: unknown): void {
    this.logger.warn({ err: (error as Error).message }, 'login rate limiter falling back to process memory');
  }
}
