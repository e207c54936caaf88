import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RedisClient } from '../../redis/redis-client.js';

const CHECK_TIMEOUT_MS = 2_000;

export interface DependencyCheck {
  status: 'up' | 'down';
  latency_ms: number;
  error?: string;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { database: DependencyCheck; redis: DependencyCheck };
}

async function timed(probe: () => Promise<unknown>): Promise<DependencyCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      probe(),
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)),
          CHECK_TIMEOUT_MS,
        );
      }),
    ]);
    return { status: 'up', latency_ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      status: 'down',
      latency_ms: Math.round(performance.now() - started),
      error: error instanceof Error ? error.message.slice(0, 200) : 'unknown error',
    };
  } finally {
    clearTimeout(timer);
  }
}

@Injectable()
export class HealthService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisClient,
  ) {}

  async check(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([
      timed(() => this.dataSource.query('SELECT 1')),
      timed(() => this.redis.ping()),
    ]);
    const ok = database.status === 'up' && redis.status === 'up';
    return { status: ok ? 'ok' : 'unavailable', checks: { database, redis } };
  }
}
