import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/index.js';
import { SchedulesController } from './schedules.controller.js';
import { SchedulesCoreModule } from './schedules-core.module.js';
import { SchedulesService } from './schedules.service.js';

/** API side of schedules: manage them, run one now, read its occurrences. */
@Module({
  imports: [SchedulesCoreModule, AgentsModule],
  controllers: [SchedulesController],
  providers: [SchedulesService],
})
export class SchedulesModule {}
