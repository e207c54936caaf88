import { DynamicModule, Module } from '@nestjs/common';
import { coreImports } from './core-imports.js';
import type { AppConfig } from './config/app-config.js';
import { AgentRunWorkerModule } from './modules/agent-runtime/agent-run-worker.module.js';
import { MaintenanceModule } from './modules/maintenance/maintenance.module.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';

/** Modules holding queue consumers: what a worker process runs. */
export const WORKER_MODULES = [MaintenanceModule, AgentRunWorkerModule];

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
