import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyTombstoneEntity } from './api-key-tombstone.entity.js';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyRetention } from './api-key-retention.js';

/** The retention job's view of API keys, for the worker (which does not load the HTTP auth layer). */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity, ApiKeyTombstoneEntity])],
  providers: [ApiKeyRetention],
  exports: [ApiKeyRetention],
})
export class ApiKeyRetentionModule {}
