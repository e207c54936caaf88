import { Module } from '@nestjs/common';
import { KnowledgeCoreModule } from './knowledge-core.module.js';

/** The knowledge HTTP API (`/api/knowledge-bases`, `/api/system/settings/knowledge`) over the core. */
@Module({
  imports: [KnowledgeCoreModule],
  exports: [KnowledgeCoreModule],
})
export class KnowledgeModule {}
