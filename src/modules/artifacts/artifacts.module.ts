import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ToolsModule } from '../tools/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { ArtifactsService } from './artifacts.service.js';
import { PresentArtifactsTool } from './present-artifacts.tool.js';
import { ThreadArtifactEntity } from './thread-artifact.entity.js';
import { ThreadArtifactsRepository } from './thread-artifacts.repository.js';

/** `present_artifacts` and the thread's artifact list (the thread routes mount it with the runtime). */
@Module({
  imports: [ToolsModule, WorkspaceModule, TypeOrmModule.forFeature([ThreadArtifactEntity])],
  providers: [ThreadArtifactsRepository, ArtifactsService, PresentArtifactsTool],
  exports: [ArtifactsService],
})
export class ArtifactsModule {}
