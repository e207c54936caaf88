import { createServer, type Server } from 'node:http';
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
  private server: Server | null = null;

  constructor(
    private readonly config: AppConfig,
    private readonly exposition: MetricsExposition,
  ) {}

  async onModuleInit(): Promise<void> {
    const port = this.config.metrics.port;
    if (port === null) return;
    const server = createServer((req, res) => {
      if (pathOf(req) === METRICS_PATH)
        return void answerMetrics(req, res, this.exposition, { requireToken: false });
      sendJsonError(res, 404, { code: CommonErrorCode.NOT_FOUND, message: 'Not found' });
    });
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log({ port }, 'metrics listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (server === null) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    await closed;
  }
}
