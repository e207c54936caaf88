import { Redis } from 'ioredis';

/** The application's fail-fast Redis connection (rate limits, health, pub/sub publishing). */
export class RedisClient extends Redis {}
