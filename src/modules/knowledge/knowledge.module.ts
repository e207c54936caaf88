import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { MulterModule } from '@nestjs/platform-express';
import { AppConfig } from '../../config/app-config.js';
import { UsersModule } from '../users/index.js';
import { KbShareConfigPolicy } from './access/kb-share-config.policy.js';
import { KnowledgeBasesController } from './bases/knowledge-bases.controller.js';
import { KnowledgeBasesService } from './bases/knowledge-bases.service.js';
import { KbManagerGuard } from './files/kb-manager.guard.js';
import { kbUploadMulterOptions } from './files/kb-upload.js';
import { KnowledgeFilesController } from './files/knowledge-files.controller.js';
import { KnowledgeFilesService } from './files/knowledge-files.service.js';
import { KNOWLEDGE_INDEXING_QUEUE } from './indexing/knowledge-indexing.queue.js';
import { KnowledgeCoreModule } from './knowledge-core.module.js';
import { KnowledgeQueryService } from './search/knowledge-query.service.js';
import { KnowledgeSettingsController } from './settings/knowledge-settings.controller.js';

/**
 * The knowledge HTTP API (`/api/knowledge-bases…`, `/api/system/settings/knowledge`) over the core; it
 * enqueues indexing jobs, which `KnowledgeWorkerModule` consumes.
 */
@Module({
  imports: [
    KnowledgeCoreModule,
    UsersModule,
    BullModule.registerQueue({ name: KNOWLEDGE_INDEXING_QUEUE }),
    MulterModule.registerAsync({ inject: [AppConfig], useFactory: kbUploadMulterOptions }),
  ],
  controllers: [KnowledgeBasesController, KnowledgeFilesController, KnowledgeSettingsController],
  providers: [
    KbShareConfigPolicy,
    KnowledgeBasesService,
    KnowledgeFilesService,
    KbManagerGuard,
    KnowledgeQueryService,
  ],
  exports: [KnowledgeCoreModule],
})
export class KnowledgeModule {}
