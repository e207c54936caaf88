import { DynamicModule, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config.js';
import { buildDataSourceOptions, type EntityClass } from './data-source-options.js';
import { DatabaseMigrator } from './database-migrator.js';

/** The TypeORM root connection over the given entities (`src/entities.ts`), and the migrator. */
@Module({})
export class DatabaseModule {
  static forRoot(entities: readonly EntityClass[]): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) => ({
            ...buildDataSourceOptions(
              {
                url: config.database.url.reveal(),
                poolSize: config.database.poolSize,
                applicationName: `yuxi-${config.role}`,
              },
              entities,
            ),
            retryAttempts: 3,
            retryDelay: 1_000,
          }),
        }),
      ],
      providers: [DatabaseMigrator],
    };
  }
}
