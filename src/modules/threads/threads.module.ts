import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../../config/app-config.js';
import { AgentsModule } from '../agents/index.js';
import { ArtifactsModule } from '../artifacts/index.js';
import { QuotaCountedUploadStorage, WorkspaceModule } from '../workspace/index.js';
import { ThreadFilesController } from './thread-files.controller.js';
import { ThreadDeletionChecks } from './deletion/thread-deletion-checks.js';
import { ThreadEntity } from './thread.entity.js';
import { ThreadsController } from './threads.controller.js';
import { ThreadsRepository } from './threads.repository.js';
import { ThreadsService } from './threads.service.js';
import { uploadMulterOptions } from './upload/upload-limits.js';

/** Threads (conversations) and their workdir files; runs and messages arrive with the runtime. */
@Module({
  imports: [
    TypeOrmModule.forFeature([ThreadEntity]),
    AgentsModule,
    WorkspaceModule,
    ArtifactsModule,
    MulterModule.registerAsync({
      imports: [WorkspaceModule],
      inject: [AppConfig, QuotaCountedUploadStorage],
      useFactory: uploadMulterOptions,
    }),
  ],
  controllers: [ThreadsController, ThreadFilesController],
  providers: [ThreadsRepository, ThreadsService, ThreadDeletionChecks],
  exports: [ThreadsService, ThreadDeletionChecks],
})
export class ThreadsModule {}
