import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from './config/app-config.js';
import { CryptoModule } from './common/crypto/crypto.module.js';
import { AppConfigModule } from './config/config.module.js';
import { DatabaseModule } from './database/database.module.js';
import { ENTITIES } from './entities.js';
import { LoggingModule } from './logging/logging.module.js';
import { MetricsModule } from './observability/metrics/index.js';
import { TracingModule } from './observability/tracing/index.js';
import { QueueModule } from './queue/queue.module.js';
import { RedisModule } from './redis/redis.module.js';

/** Infrastructure shared by both process roles. */
export function coreImports(config: AppConfig) {
  return [
    // First: of all global modules its shutdown hook (the last spans' export) runs last.
    TracingModule,
    AppConfigModule.forRoot(config),
    CryptoModule,
    LoggingModule,
    MetricsModule,
    DatabaseModule.forRoot(ENTITIES),
    RedisModule,
    QueueModule,
    DiscoveryModule,
  ];
}
