import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyRetention } from './api-key-retention.js';

/** The retention job's view of API keys, for the worker (which does not load the HTTP auth layer). */
@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeyRetention],
  exports: [ApiKeyRetention],
})
export class ApiKeyRetentionModule {}
