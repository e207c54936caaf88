import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { CheckpointRetentionModule } from '../agent-runtime/index.js';
import { ApiKeyRetentionModule } from '../auth/index.js';
import { ImprovementMarksRetentionModule } from '../improvement-marks/index.js';
import { SkillDraftsRetentionModule } from '../skills/index.js';
import { MaintenanceProcessor } from './maintenance.processor.js';
import { MAINTENANCE_QUEUE } from './maintenance.queue.js';
import { MaintenanceScheduler } from './maintenance.scheduler.js';

/** Worker side: recurring housekeeping on the `maintenance` queue. */
@Module({
  imports: [
    BullModule.registerQueue({ name: MAINTENANCE_QUEUE }),
    ApiKeyRetentionModule,
    ImprovementMarksRetentionModule,
    CheckpointRetentionModule,
    SkillDraftsRetentionModule,
  ],
  providers: [MaintenanceProcessor, MaintenanceScheduler],
})
export class MaintenanceModule {}
