import { SideListener } from '../../common/http/side-listener.js';
import { Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { CommonErrorCode } from '../../common/errors/index.js';
import { AppConfig } from '../../config/app-config.js';
import { METRICS_PATH, MetricsExposition } from './metrics-exposition.js';
import { answerMetrics, pathOf, sendJsonError } from './metrics-http.js';

/**
 * `METRICS_PORT`: a listener of this process's own that serves `/metrics` and nothing else, with no
 * token (the port is meant for a private network; `METRICS_TOKEN` protects the public ports). Like the
 * worker's health listener it opens at module init and closes on the last shutdown hook, so the
 * process can be scraped while it drains.
 */
@Injectable()
export class MetricsListener implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(MetricsListener.name);
  private listener: SideListener | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly exposition: MetricsExposition,
  ) {}

  async onModuleInit(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === null) return;
    this.listener = await SideListener.open(
      port,
      (req, res) => {
        if (pathOf(req) === METRICS_PATH)
          return void answerMetrics(req, res, this.exposition, { requireToken: false });
        sendJsonError(res, 404, { code: CommonErrorCode.NOT_FOUND, message: 'Not found' });
      },
      5_000,
    );
    this.logger.log({ port }, 'metrics listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.close();
  }
}
