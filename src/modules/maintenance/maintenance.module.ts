import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { MaintenanceProcessor } from './maintenance.processor.js';
import { MAINTENANCE_QUEUE } from './maintenance.queue.js';
import { MaintenanceScheduler } from './maintenance.scheduler.js';

/** Worker side: recurring housekeeping on the `maintenance` queue. */
@Module({
  imports: [BullModule.registerQueue({ name: MAINTENANCE_QUEUE }), AuthModule],
  providers: [MaintenanceProcessor, MaintenanceScheduler],
})
export class MaintenanceModule {}
