import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentsModule } from '../agents/index.js';
import { UsersModule } from '../users/index.js';
import { KnowledgeAccess } from './access/knowledge-access.js';
import { KnowledgesResourceSource } from './agents/knowledges-resource-source.js';
import { KnowledgeFileLocations } from './files/knowledge-file-locations.js';
import { ChunkWriter } from './indexing/chunk-writer.js';
import { EmbeddingsClient } from './search/embeddings-client.js';
import { KnowledgeSearch } from './search/knowledge-search.js';
import { LexicalRanking } from './search/lexical-ranking.js';
import { VectorRanking } from './search/vector-ranking.js';
import { KnowledgeSettingsEntity } from './settings/knowledge-settings.entity.js';
import { KnowledgeSettings } from './settings/knowledge-settings.js';
import { KnowledgeBaseEntity } from './storage/knowledge-base.entity.js';
import { KnowledgeBasesRepository } from './storage/knowledge-bases.repository.js';
import { KnowledgeChunkEntity } from './storage/knowledge-chunk.entity.js';
import { KnowledgeFileEntity } from './storage/knowledge-file.entity.js';
import { KnowledgePostingEntity } from './storage/knowledge-posting.entity.js';

/**
 * What every process needs of knowledge (API and worker alike): the tables, who may read which base,
 * the settings, search, and the `knowledges` resource source of agents (validation and run snapshots).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      KnowledgeBaseEntity,
      KnowledgeFileEntity,
      KnowledgeChunkEntity,
      KnowledgePostingEntity,
      KnowledgeSettingsEntity,
    ]),
    UsersModule,
    AgentsModule,
  ],
  providers: [
    KnowledgeBasesRepository,
    KnowledgeAccess,
    KnowledgeSettings,
    EmbeddingsClient,
    LexicalRanking,
    VectorRanking,
    KnowledgeSearch,
    KnowledgesResourceSource,
    ChunkWriter,
    KnowledgeFileLocations,
  ],
  exports: [
    TypeOrmModule,
    KnowledgeBasesRepository,
    KnowledgeAccess,
    KnowledgeSettings,
    EmbeddingsClient,
    KnowledgeSearch,
    ChunkWriter,
    KnowledgeFileLocations,
  ],
})
export class KnowledgeCoreModule {}
