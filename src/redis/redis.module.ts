import { Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { quitRedis } from './quit-redis.js';
import { RedisClient } from './redis-client.js';
import { failFastRedisOptions } from './redis-options.js';

@Injectable()
class RedisClientCloser implements OnApplicationShutdown {
  constructor(@Inject(RedisClient) private readonly client: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await quitRedis(this.client);
  }
}

@Global()
@Module({
  providers: [
    {
      provide: RedisClient,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => {
        const client = new RedisClient({
          ...failFastRedisOptions(config.redis.url.reveal()),
          keyPrefix: `${config.redis.prefix}:`,
        });
        const logger = new Logger('Redis');
        let lastError = '';
        // Without a listener ioredis prints every reconnect failure; log each distinct error once.
        client.on('error', (error: Error) => {
          if (error.message === lastError) return;
          lastError = error.message;
          logger.warn({ err: error.message }, 'redis connection error');
        });
        client.on('ready', () => {
          lastError = '';
        });
        return client;
      },
    },
    RedisClientCloser,
  ],
  exports: [RedisClient],
})
export class RedisModule {}
