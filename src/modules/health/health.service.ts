import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { RedisClient } from '../../redis/redis-client.js';

const CHECK_TIMEOUT_MS = 2_000;

/** Only up/down and latency: the endpoint needs no auth, so why a check failed goes to the log. */
export interface DependencyCheck {
  status: 'up' | 'down';
  latency_ms: number;
}

export interface HealthReport {
  status: 'ok' | 'unavailable';
  checks: { database: DependencyCheck; redis: DependencyCheck };
}

function errorText(error: unknown): string {
  if (error instanceof Error) return error.message === '' ? error.name : error.message;
  return String(error);
}

async function timed(
  dependency: string,
  probe: () => Promise<unknown>,
  logger: Logger,
): Promise<DependencyCheck> {
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
    const latency = Math.round(performance.now() - started);
    logger.warn(
      { dependency, err: errorText(error).slice(0, 500), latency_ms: latency },
      'health check failed',
    );
    return { status: 'down', latency_ms: latency };
  } finally {
    clearTimeout(timer);
  }
}

@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly redis: RedisClient,
  ) {}

  async check(): Promise<HealthReport> {
    const [database, redis] = await Promise.all([
      timed('database', () => this.dataSource.query('SELECT 1'), this.logger),
      timed('redis', () => this.redis.ping(), this.logger),
    ]);
    const ok = database.status === 'up' && redis.status === 'up';
    return { status: ok ? 'ok' : 'unavailable', checks: { database, redis } };
  }
}
