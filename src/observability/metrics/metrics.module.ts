import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import type { AppConfig } from '../../config/app-config.js';
import { Metrics } from './metrics.js';
import { MetricsController } from './metrics.controller.js';
import { MetricsExposition } from './metrics-exposition.js';
import { MetricsListener } from './metrics-listener.js';
import { MetricsRegistry } from './metrics-registry.js';
import { MetricsTokenGuard } from './metrics-token.guard.js';
import { QueueDepthReader } from './queue-depth-reader.js';

/**
 * Both roles (`coreImports`): this process's registry, `Metrics` for every module to record with, the
 * exposition (the worker's health listener serves it too) and the `METRICS_PORT` listener.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [QueueDepthReader, MetricsRegistry, Metrics, MetricsExposition, MetricsListener],
  exports: [Metrics, MetricsExposition],
})
export class MetricsModule {}

/** The API process: `GET /metrics` on its main port, mounted only when `METRICS_TOKEN` is set. */
@Module({})
export class MetricsEndpointModule {
  static forRoot(config: AppConfig): DynamicModule {
    const served = config.metrics.token !== null;
    return {
      module: MetricsEndpointModule,
      controllers: served ? [MetricsController] : [],
      providers: served ? [MetricsTokenGuard] : [],
    };
  }
}
