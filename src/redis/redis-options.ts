import type { RedisOptions } from 'ioredis';

/** ioredis options from a `redis://` or `rediss://` URL. */
export function redisOptionsFromUrl(url: string): RedisOptions {
  const parsed = new URL(url);
  const db = parsed.pathname.replace('/', '');
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    username: parsed.username === '' ? undefined : decodeURIComponent(parsed.username),
    password: parsed.password === '' ? undefined : decodeURIComponent(parsed.password),
    db: db === '' ? 0 : Number(db),
    tls: parsed.protocol === 'rediss:' ? {} : undefined,
  };
}

/**
 * For request paths (API process): commands fail at once while Redis is unreachable, so a request
 * answers 503 instead of hanging; the client keeps reconnecting in the background.
 */
export function failFastRedisOptions(url: string): RedisOptions {
  return {
    ...redisOptionsFromUrl(url),
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
}

/** For queue consumers: wait for Redis forever (BullMQ requires `maxRetriesPerRequest: null`). */
export function patientRedisOptions(url: string): RedisOptions {
  return {
    ...redisOptionsFromUrl(url),
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(times * 500, 5_000),
  };
}

/**
 * For pub/sub subscriber connections: patient like a consumer, without the ready check (ioredis sends
 * INFO on connect, which a connection with SUBSCRIBEs already queued refuses).
 */
export function subscriberRedisOptions(url: string): RedisOptions {
  return { ...patientRedisOptions(url), enableReadyCheck: false };
}
