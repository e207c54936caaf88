import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createSeries, type MetricSeries } from './metric-series.js';
import { QueueDepthReader } from './queue-depth-reader.js';

/**
 * This process's registry (never prom-client's global one: each process, and each app a test boots,
 * has its own): the series of this service and prom-client's default Node process metrics.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly series: MetricSeries;

  constructor(queues: QueueDepthReader) {
    collectDefaultMetrics({ register: this.registry });
    this.series = createSeries(this.registry, () => queues.read());
  }

  /** The text exposition format, and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}
