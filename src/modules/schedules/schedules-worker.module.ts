import { Module } from '@nestjs/common';
import { ScheduleTick } from './firing/schedule-tick.js';
import { ScheduleTimer } from './firing/schedule-timer.js';
import { SchedulesCoreModule } from './schedules-core.module.js';

/** Worker side: the scheduler, in every worker process (no leader; see `ScheduleClaims`). */
@Module({
  imports: [SchedulesCoreModule],
  providers: [ScheduleTick, ScheduleTimer],
  exports: [ScheduleTick],
})
export class SchedulesWorkerModule {}
