import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { WorkerHost } from '@nestjs/bullmq';
import { DiscoveryService } from '@nestjs/core';
import type { Worker } from 'bullmq';
import { AppConfig } from '../../config/app-config.js';
import { HealthService, type DependencyCheck } from './health.service.js';

/** The queue consumers of this process: `up` once every one of them is taking jobs. */
export interface ConsumersCheck {
  status: 'up' | 'down';
  running: number;
  total: number;
}

export interface ReadinessReport {
  status: 'ok' | 'unavailable';
  /** A stop signal arrived: the process finishes in-flight work and takes nothing new. */
  draining: boolean;
  checks: { database: DependencyCheck; redis: DependencyCheck; consumers?: ConsumersCheck };
}

/**
 * Whether this process should get work: PostgreSQL and Redis answer, its queue consumers (none in an
 * `APP_ROLE=api` process) run, and it is not shutting down. `onModuleDestroy` is the first shutdown
 * hook, so readiness turns off before any consumer starts draining.
 */
@Injectable()
export class ReadinessService implements OnModuleDestroy {
  private draining = false;

  constructor(
    private readonly health: HealthService,
    private readonly discovery: DiscoveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleDestroy(): void {
    this.draining = true;
  }

  async check(): Promise<ReadinessReport> {
    const { checks } = await this.health.check();
    const consumers = this.config.role === 'api' ? undefined : this.consumers();
    const ok =
      !this.draining &&
      checks.database.status === 'up' &&
      checks.redis.status === 'up' &&
      (consumers === undefined || consumers.status === 'up');
    return {
      status: ok ? 'ok' : 'unavailable',
      draining: this.draining,
      checks: consumers === undefined ? checks : { ...checks, consumers },
    };
  }

  private consumers(): ConsumersCheck {
    const workers = this.discovery
      .getProviders()
      .map((wrapper) => wrapper.instance as unknown)
      .filter((instance): instance is WorkerHost => instance instanceof WorkerHost)
      .map((host) => host.worker as Worker | undefined);
    const running = workers.filter((w) => w !== undefined && w.isRunning() && !w.isPaused()).length;
    const total = workers.length;
    return { status: total > 0 && running === total ? 'up' : 'down', running, total };
  }
}
