import { InjectQueue } from '@nestjs/bullmq';
import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { AppConfig } from '../../config/app-config.js';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from './maintenance.queue.js';

/** Registers the recurring housekeeping jobs (idempotent: one scheduler per job, whatever the replicas). */
@Injectable()
export class MaintenanceScheduler implements OnApplicationBootstrap {
  constructor(
    @InjectQueue(MAINTENANCE_QUEUE) private readonly queue: Queue,
    private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.queue.upsertJobScheduler(
      MaintenanceJobs.purgeStaleApiKeys,
      { pattern: '17 3 * * *' },
      { name: MaintenanceJobs.purgeStaleApiKeys, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
    await this.queue.upsertJobScheduler(
      MaintenanceJobs.purgeExpiredImprovementMarks,
      { pattern: '37 3 * * *' },
      {
        name: MaintenanceJobs.purgeExpiredImprovementMarks,
        opts: { removeOnComplete: 100, removeOnFail: 100 },
      },
    );
    await this.queue.upsertJobScheduler(
      MaintenanceJobs.pruneCheckpoints,
      { every: this.config.runtime.checkpointPruneSeconds * 1000 },
      { name: MaintenanceJobs.pruneCheckpoints, opts: { removeOnComplete: 100, removeOnFail: 100 } },
    );
    // Drafts live an hour: removed within a quarter of an hour of expiring.
    await this.queue.upsertJobScheduler(
      MaintenanceJobs.purgeExpiredSkillDrafts,
      { every: 15 * 60 * 1000 },
      {
        name: MaintenanceJobs.purgeExpiredSkillDrafts,
        opts: { removeOnComplete: 100, removeOnFail: 100 },
      },
    );
  }
}
