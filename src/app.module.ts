import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { coreImports } from './core-imports.js';
import { AgentRuntimeModule } from './modules/agent-runtime/agent-runtime.module.js';
import { AgentsModule } from './modules/agents/agents.module.js';
import { ArtifactsModule } from './modules/artifacts/artifacts.module.js';
import { AuthModule } from './modules/auth/auth.module.js';
import { HealthModule } from './modules/health/health.module.js';
import { ImprovementMarksModule } from './modules/improvement-marks/improvement-marks.module.js';
import { OcrModule } from './modules/ocr/ocr.module.js';
import { ThreadsModule } from './modules/threads/threads.module.js';
import { ToolsModule } from './modules/tools/tools.module.js';
import { WorkspaceModule } from './modules/workspace/workspace.module.js';
import { UsersModule } from './modules/users/users.module.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';
import { WORKER_MODULES } from './worker.module.js';

/** The API process; with `APP_ROLE=all` (the default) it also consumes the queues. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig): DynamicModule {
    const runsWorkers = config.role === 'all';
    return {
      module: AppModule,
      imports: [
        ...coreImports(config),
        UsersModule,
        AuthModule,
        HealthModule,
        ToolsModule,
        WorkspaceModule,
        ArtifactsModule,
        OcrModule,
        ThreadsModule,
        AgentsModule,
        AgentRuntimeModule,
        ImprovementMarksModule,
        ...(runsWorkers ? WORKER_MODULES : []),
      ],
      providers: [ShutdownLog, ...(runsWorkers ? [BoundedWorkerDrain] : [])],
    };
  }
}
