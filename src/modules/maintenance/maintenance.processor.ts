import { Processor, WorkerHost } from '@nestjs/bullmq';
import { Logger } from '@nestjs/common';
import type { Job } from 'bullmq';
import { CheckpointPruning } from '../agent-runtime/index.js';
import { ApiKeyRetention } from '../auth/index.js';
import { ImprovementMarksRetention } from '../improvement-marks/index.js';
import { SkillDraftsRetention } from '../skills/index.js';
import { MAINTENANCE_QUEUE, MaintenanceJobs } from './maintenance.queue.js';

/** Housekeeping jobs; each is idempotent, so a redelivered job does no harm. */
@Processor(MAINTENANCE_QUEUE)
export class MaintenanceProcessor extends WorkerHost {
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly apiKeyRetention: ApiKeyRetention,
    private readonly improvementMarksRetention: ImprovementMarksRetention,
    private readonly checkpointPruning: CheckpointPruning,
    private readonly skillDraftsRetention: SkillDraftsRetention,
  ) {
    super();
  }

  async process(job: Job): Promise<{ deleted: number }> {
    switch (job.name) {
      case MaintenanceJobs.purgeStaleApiKeys: {
        const deleted = await this.apiKeyRetention.purgeStale();
        if (deleted > 0) this.logger.log({ deleted }, 'purged stale API keys');
        return { deleted };
      }
      case MaintenanceJobs.purgeExpiredImprovementMarks: {
        const deleted = await this.improvementMarksRetention.purgeExpired();
        if (deleted > 0) this.logger.log({ deleted }, 'purged expired improvement marks');
        return { deleted };
      }
      case MaintenanceJobs.pruneCheckpoints: {
        const counts = await this.checkpointPruning.pruneAll();
        const deleted = counts.checkpoints + counts.writes + counts.blobs;
        if (deleted > 0) this.logger.log(counts, 'pruned superseded checkpoints');
        return { deleted, ...counts };
      }
      case MaintenanceJobs.purgeExpiredSkillDrafts: {
        const counts = await this.skillDraftsRetention.purgeExpired();
        const deleted = counts.expired + counts.unaccounted;
        if (deleted > 0) this.logger.log(counts, 'removed expired skill drafts');
        return { deleted, ...counts };
      }
      default:
        throw new Error(`unknown maintenance job "${job.name}"`);
    }
  }
}
