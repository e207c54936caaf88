import { DynamicModule, Module } from '@nestjs/common';
import { coreImports } from './core-imports.js';
import type { AppConfig } from './config/app-config.js';
import { MaintenanceModule } from './modules/maintenance/maintenance.module.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';

/** Modules holding queue consumers: what a worker process runs. */
export const WORKER_MODULES = [MaintenanceModule];

/** The worker process: queue consumers without the HTTP layer. */
@Module({})
export class WorkerModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [...coreImports(config), ...WORKER_MODULES],
      providers: [BoundedWorkerDrain, ShutdownLog],
    };
  }
}
