import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config.js';
import { runMigrationsExclusively } from './run-migrations.js';

/** Applies pending migrations at boot unless `DB_MIGRATE_ON_START=false`. */
@Injectable()
export class DatabaseMigrator implements OnModuleInit {
  private readonly logger = new Logger(DatabaseMigrator.name);

  constructor(
    private readonly config: AppConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.database.migrateOnStart) return;
    const applied = await runMigrationsExclusively(this.dataSource);
    if (applied.length > 0) this.logger.log({ applied }, 'migrations applied');
  }
}
