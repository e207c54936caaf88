import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ImprovementMarkEntity } from '../improvement-mark.entity.js';
import { ImprovementMarksRepository } from '../improvement-marks.repository.js';
import { ImprovementMarksRetention } from './improvement-marks-retention.js';

/** The retention job's view of marks, for the maintenance worker. */
@Module({
  imports: [TypeOrmModule.forFeature([ImprovementMarkEntity])],
  providers: [ImprovementMarksRepository, ImprovementMarksRetention],
  exports: [ImprovementMarksRetention],
})
export class ImprovementMarksRetentionModule {}
