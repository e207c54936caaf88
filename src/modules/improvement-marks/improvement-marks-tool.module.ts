import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { RunAuthorizationModule } from '../agent-runtime/index.js';
import { ToolsModule } from '../tools/index.js';
import { ImprovementMarkEntity } from './improvement-mark.entity.js';
import { ImprovementMarksRepository } from './improvement-marks.repository.js';
import { MarkForImprovementTool } from './tool/mark-for-improvement.tool.js';
import { MarkRecorder } from './tool/mark-recorder.js';

/**
 * The `mark_for_improvement` tool and the marks table, without the HTTP layer: the worker imports this
 * to execute the tool; `ImprovementMarksModule` adds the review API on top.
 */
@Module({
  imports: [ToolsModule, RunAuthorizationModule, TypeOrmModule.forFeature([ImprovementMarkEntity])],
  providers: [ImprovementMarksRepository, MarkRecorder, MarkForImprovementTool],
  exports: [ImprovementMarksRepository],
})
export class ImprovementMarksToolModule {}
