import { Injectable, Logger, BeforeApplicationShutdown } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import { AppConfig } from '../config/app-config.js';

/**
 * On shutdown, stops every BullMQ worker from taking jobs and gives active jobs until
 * SHUTDOWN_GRACE_SECONDS to finish; then closes them forcibly, so shutdown is always bounded.
 * (A forced close leaves the job's lock to expire; BullMQ then hands it to another worker.)
 */
@Injectable()
export class BoundedWorkerDrain implements BeforeApplicationShutdown {
  private readonly logger = new Logger(BoundedWorkerDrain.name);

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly config: AppConfig,
  ) {}

  async beforeApplicationShutdown(): Promise<void> {
    const workers = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker)
      .filter((worker) => worker !== undefined);
    if (workers.length === 0) return;
    const graceMs = this.config.runtime.shutdownGraceSeconds * 1000;
    await Promise.all(
      workers.map(async (worker) => {
        let timer: NodeJS.Timeout | undefined;
        const expired = new Promise<'expired'>((resolve) => {
          timer = setTimeout(() => resolve('expired'), graceMs);
        });
        const outcome = await Promise.race([worker.close().then(() => 'drained' as const), expired]);
        clearTimeout(timer);
        if (outcome === 'expired') {
          this.logger.warn({ queue: worker.name, grace_ms: graceMs }, 'grace period over: closing worker forcibly');
          await worker.close(true);
        }
      }),
    );
  }
}
