// The schedules module's front door: what other modules may use. Everything else is internal.
import { ScheduleOccurrenceEntity } from './schedule-occurrence.entity.js';
import { ScheduleEntity } from './schedule.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const SCHEDULES_ENTITIES = [ScheduleEntity, ScheduleOccurrenceEntity];

export { SchedulesModule } from './schedules.module.js';
export { SchedulesWorkerModule } from './schedules-worker.module.js';
