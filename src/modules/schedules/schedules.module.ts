import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/index.js';
import { UsersModule } from '../users/index.js';
import { SchedulesController } from './schedules.controller.js';
import { SchedulesCoreModule } from './schedules-core.module.js';
import { SchedulesService } from './schedules.service.js';
import { OwnerDisabledHook } from './owner-disabled-hook.js';

/** API side of schedules: manage them, run one now, read its occurrences. */
@Module({
  imports: [SchedulesCoreModule, AgentsModule, UsersModule],
  controllers: [SchedulesController],
  providers: [SchedulesService, OwnerDisabledHook],
})
export class SchedulesModule {}
