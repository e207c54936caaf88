import type { Job, JobsOptions, Queue } from 'bullmq';
import { CommonErrors, DomainError } from '../common/errors/index.js';
import type { RedisClient } from '../redis/redis-client.js';

const DEFAULT_TIMEOUT_MS = 2_000;

/**
 * Adds a job, or throws `common.dependency_unavailable` (HTTP 503) when Redis cannot take it now.
 * A producer on a request path never waits for Redis to come back: it refuses at once when the
 * application's fail-fast connection is down, and gives up after a short bound otherwise.
 */
export async function enqueueOrFail<T>(
  redis: RedisClient,
  queue: Queue,
  name: string,
  data: T,
  options: JobsOptions = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<Job<T>> {
  if (redis.status !== 'ready') throw CommonErrors.dependencyUnavailable('redis');
  return withTimeout(
    (async () => {
      await queue.waitUntilReady();
      return (await queue.add(name, data, options)) as Job<T>;
    })(),
    timeoutMs,
  );
}

async function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(CommonErrors.dependencyUnavailable('redis')), timeoutMs);
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch (error) {
    throw error instanceof DomainError ? error : CommonErrors.dependencyUnavailable('redis', error);
  } finally {
    clearTimeout(timer);
  }
}
