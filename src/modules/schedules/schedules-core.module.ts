import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RunStartModule } from '../agent-runtime/index.js';
import { AgentsModule } from '../agents/index.js';
import { ThreadsModule } from '../threads/index.js';
import { UsersModule } from '../users/index.js';
import { Clock, SystemClock } from './firing/clock.js';
import { OccurrenceFiring } from './firing/occurrence-firing.js';
import { ScheduleClaims } from './firing/schedule-claims.js';
import { ScheduleOccurrenceEntity } from './schedule-occurrence.entity.js';
import { ScheduleEntity } from './schedule.entity.js';
import { SchedulesRepository } from './schedules.repository.js';

const SHARED = [
  SchedulesRepository,
  OccurrenceFiring,
  ScheduleClaims,
  { provide: Clock, useClass: SystemClock },
];

/** What the HTTP side and the scheduler share: the tables, the claim and the firing of an occurrence. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ScheduleEntity, ScheduleOccurrenceEntity]),
    UsersModule,
    AgentsModule,
    ThreadsModule,
    RunStartModule,
  ],
  providers: SHARED,
  exports: SHARED,
})
export class SchedulesCoreModule {}
