import { Module } from '@nestjs/common';
import { ImprovementMarksController } from './improvement-marks.controller.js';
import { ImprovementMarksService } from './improvement-marks.service.js';
import { ImprovementMarksToolModule } from './improvement-marks-tool.module.js';

/**
 * Improvement marks: the `mark_for_improvement` base tool (also loaded by the worker through
 * `ImprovementMarksToolModule`) and the review API (`GET /api/improvement-marks`).
 */
@Module({
  imports: [ImprovementMarksToolModule],
  controllers: [ImprovementMarksController],
  providers: [ImprovementMarksService],
})
export class ImprovementMarksModule {}
