import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions } from './data-source-options.js';
import { DatabaseMigrator } from './database-migrator.js';

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions({
          url: config.database.url.reveal(),
          poolSize: config.database.poolSize,
          applicationName: `yuxi-${config.role}`,
        }),
        retryAttempts: 3,
        retryDelay: 1_000,
      }),
    }),
  ],
  providers: [DatabaseMigrator],
})
export class DatabaseModule {}
