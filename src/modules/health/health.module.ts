import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { HealthController } from './health.controller.js';
import { HealthService } from './health.service.js';
import { ReadinessService } from './readiness.service.js';
import { WorkerHealthServer } from './worker-health-server.js';

const CHECKS = [HealthService, ReadinessService];

/** The API process: `/api/health`, `/api/health/live` and `/api/health/ready` on its HTTP server. */
@Module({ imports: [DiscoveryModule], controllers: [HealthController], providers: CHECKS })
export class HealthModule {}

/** The worker process: live and ready on a listener of their own (`WORKER_HEALTH_PORT`). */
@Module({ imports: [DiscoveryModule], providers: [...CHECKS, WorkerHealthServer] })
export class WorkerHealthModule {}
