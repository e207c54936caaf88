import { BullModule } from '@nestjs/bullmq';
import { Global, Module } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { AppConfig } from '../config/app-config.js';
import { patientRedisOptions } from '../redis/redis-options.js';
import { ConsumersGate } from './consumers-gate.js';

/**
 * BullMQ's shared connection. Queue consumers wait for Redis forever; producers go through
 * `enqueueOrFail`, which refuses at once while Redis is unreachable.
 */
@Global()
@Module({
  imports: [
    BullModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        connection: patientRedisOptions(config.redis.url.reveal()) as ConnectionOptions,
        prefix: `${config.redis.prefix}:bull`,
      }),
    }),
  ],
  providers: [ConsumersGate],
  exports: [ConsumersGate],
})
export class QueueModule {}
