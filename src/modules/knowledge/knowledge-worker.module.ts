import { BullModule } from '@nestjs/bullmq';
import { Module } from '@nestjs/common';
import { OcrModule } from '../ocr/index.js';
import { KnowledgeIndexer } from './indexing/knowledge-indexer.js';
import { KnowledgeIndexingProcessor } from './indexing/knowledge-indexing.processor.js';
import { KNOWLEDGE_INDEXING_QUEUE } from './indexing/knowledge-indexing.queue.js';
import { KnowledgeCoreModule } from './knowledge-core.module.js';

/** Worker side: parses, chunks and indexes uploaded files from the `knowledge-indexing` queue. */
@Module({
  imports: [KnowledgeCoreModule, OcrModule, BullModule.registerQueue({ name: KNOWLEDGE_INDEXING_QUEUE })],
  providers: [KnowledgeIndexer, KnowledgeIndexingProcessor],
})
export class KnowledgeWorkerModule {}
