import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { createSeries, type MetricSeries } from './metric-series.js';
import { QueueDepthReader } from './queue-depth-reader.js';

const PROCESS_METRICS = Symbol.for('yuxi.metrics.process-registry');

/**
 * prom-client's default Node process metrics, once per process whatever the number of apps in it: their
 * garbage-collection observer and event-loop monitor can never be stopped, so one per app would keep
 * every app a test process ever booted (and all the code it loaded) alive.
 */
function processMetrics(): Registry {
  const holder = globalThis as { [PROCESS_METRICS]?: Registry };
  if (holder[PROCESS_METRICS] === undefined) {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
    holder[PROCESS_METRICS] = registry;
  }
  return holder[PROCESS_METRICS];
}

/**
 * This app's registry (never prom-client's global one: each app a test boots has its own): the series
 * of this service, rendered with the process's default Node metrics.
 */
@Injectable()
export class MetricsRegistry {
  readonly registry = new Registry();
  readonly series: MetricSeries;
  private readonly process = processMetrics();

  constructor(queues: QueueDepthReader) {
    this.series = createSeries(this.registry, () => queues.read());
  }

  /** The text exposition format, and its content type. */
  async render(): Promise<{ contentType: string; text: string }> {
    const [own, process] = await Promise.all([this.registry.metrics(), this.process.metrics()]);
    return { contentType: this.registry.contentType, text: `${own}\n${process}` };
  }
}
