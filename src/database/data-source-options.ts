import type { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from '../../migrations/index.js';
import { SnakeNamingStrategy } from './snake-naming.strategy.js';

export interface DatabaseConnection {
  url: string;
  poolSize: number;
  applicationName?: string;
}

/** An entity class (the list is composed outside `src/database`, in `src/entities.ts`). */
export type EntityClass = new () => object;

/**
 * Shared by the application and the TypeORM CLI. Never `synchronize`: the schema is the migrations.
 * The entities come from the caller, so this folder depends on no module.
 */
export function buildDataSourceOptions(
  connection: DatabaseConnection,
  entities: readonly EntityClass[],
): DataSourceOptions {
  return {
    type: 'postgres',
    url: connection.url,
    entities: [...entities],
    migrations: [...MIGRATIONS],
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    migrationsRun: false,
    namingStrategy: new SnakeNamingStrategy(),
    installExtensions: false,
    uuidExtension: 'pgcrypto',
    // A `where: { id: undefined }` must fail loudly, never match the first row (no BOLA by accident).
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    extra: {
      max: connection.poolSize,
      connectionTimeoutMillis: 5_000,
      idleTimeoutMillis: 30_000,
      application_name: connection.applicationName ?? 'yuxi-tool-platform',
    },
  };
}
