import { BeforeApplicationShutdown, Injectable, Logger } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import { AppConfig } from '../config/app-config.js';

/** After the grace period, how long a forced close may take before we stop waiting for it. */
const FORCED_CLOSE_BOUND_MS = 2_000;

async function within<T>(promise: Promise<T>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * On shutdown every BullMQ worker stops taking jobs and active jobs get SHUTDOWN_GRACE_SECONDS to
 * finish; then the worker is closed without waiting for them (their locks lapse and BullMQ hands the
 * jobs to another worker). `close()` would wait for active jobs without bound, and once started a
 * graceful close cannot be turned into a forced one: so pause first, then force.
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
      .filter((worker): worker is Worker => worker !== undefined);
    await Promise.all(workers.map((worker) => this.drain(worker)));
  }

  private async drain(worker: Worker): Promise<void> {
    const graceMs = this.config.runtime.shutdownGraceSeconds * 1000;
    if (!(await within(worker.pause(false), graceMs))) {
      this.logger.warn(
        { queue: worker.name, grace_ms: graceMs },
        'grace period over: leaving active jobs to their locks',
      );
    }
    if (!(await within(worker.close(true), FORCED_CLOSE_BOUND_MS))) {
      this.logger.warn({ queue: worker.name }, 'worker did not close in time; disconnecting');
      await worker.disconnect().catch(() => undefined);
    }
  }
}
