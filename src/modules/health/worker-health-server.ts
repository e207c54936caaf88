import type { IncomingMessage, ServerResponse } from 'node:http';
import { SideListener } from '../../common/http/side-listener.js';
import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { CommonErrorCode } from '../../common/errors/index.js';
import { AppConfig } from '../../config/app-config.js';
import { answerMetrics, METRICS_PATH, MetricsExposition } from '../../observability/metrics/index.js';
import { ReadinessService } from './readiness.service.js';

const LIVE_PATH = '/api/health/live';
const READY_PATH = '/api/health/ready';

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * The worker's only HTTP surface: live and ready for an orchestrator, on `WORKER_HEALTH_PORT`, and
 * `/metrics` behind `METRICS_TOKEN` when that is set (404 otherwise). It
 * listens from module init, so ready answers 503 while the rest of the worker starts, and closes on
 * the last shutdown hook, after the queue consumers drained (ready answers 503 meanwhile).
 */
@Injectable()
export class WorkerHealthServer implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(WorkerHealthServer.name);
  private listener: SideListener | null = null;

  constructor(
    private readonly readiness: ReadinessService,
    private readonly config: AppConfig,
    private readonly metrics: MetricsExposition,
  ) {}

  async onModuleInit(): Promise<void> {
    const port = this.config.workerHealth.port;
    if (port === null) return;
    this.listener = await SideListener.open(port, (req, res) => void this.answer(req, res), 1_000);
    this.logger.log({ port }, 'worker health listener started');
  }

  async onApplicationShutdown(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    await listener?.close();
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '').split('?')[0];
    if (path === METRICS_PATH && this.metrics.protectedRouteEnabled) {
      await answerMetrics(req, res, this.metrics, { requireToken: true });
      return;
    }
    if (path !== LIVE_PATH && path !== READY_PATH) {
      send(res, 404, { code: CommonErrorCode.NOT_FOUND, message: 'Not found', details: null });
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      send(res, 405, {
        code: CommonErrorCode.METHOD_NOT_ALLOWED,
        message: 'Method not allowed',
        details: null,
      });
      return;
    }
    if (path === LIVE_PATH) {
      send(res, 200, { status: 'ok' });
      return;
    }
    try {
      const report = await this.readiness.check();
      send(res, report.status === 'ok' ? 200 : 503, report);
    } catch (error) {
      this.logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'ready check failed');
      if (!res.headersSent) send(res, 503, { status: 'unavailable', draining: false, checks: {} });
    }
  }
}
