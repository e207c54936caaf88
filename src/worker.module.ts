import { DynamicModule, Module, type Type } from '@nestjs/common';
import { coreImports } from './core-imports.js';
import type { AppConfig } from './config/app-config.js';
import { loadAgentRunWorkerModule } from './modules/agent-runtime/index.js';
import { ArtifactsModule } from './modules/artifacts/index.js';
import { ImprovementMarksToolModule } from './modules/improvement-marks/index.js';
import { KnowledgeWorkerModule } from './modules/knowledge/index.js';
import { MaintenanceModule } from './modules/maintenance/index.js';
import { McpRuntimeModule } from './modules/mcp/index.js';
import { OcrModule } from './modules/ocr/index.js';
import { SandboxModule } from './modules/sandbox/index.js';
import { SchedulesWorkerModule } from './modules/schedules/index.js';
import { SkillsCoreModule, SkillsInstallToolModule } from './modules/skills/index.js';
import { WebSearchModule } from './modules/web-search/index.js';
import { WorkspaceModule } from './modules/workspace/index.js';
import { WorkerHealthModule } from './modules/health/index.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';

/**
 * What a worker process runs: the modules holding queue consumers, every module that registers tools,
 * so the worker can execute them, and `SkillsCoreModule` (builtin sync at start, the shared-skill read
 * policy the file tools ask). The runs worker is imported here, on demand, so that an API process
 * (which imports the module front doors) never loads it.
 */
export async function workerModules(): Promise<Type[]> {
  return [
    MaintenanceModule,
    await loadAgentRunWorkerModule(),
    WorkspaceModule,
    ArtifactsModule,
    OcrModule,
    SandboxModule,
    WebSearchModule,
    ImprovementMarksToolModule,
    SkillsCoreModule,
    SkillsInstallToolModule,
    McpRuntimeModule,
    KnowledgeWorkerModule,
    SchedulesWorkerModule,
  ];
}

/** The worker modules as one module, for the API process of `APP_ROLE=all`. */
@Module({})
export class WorkerModulesBundle {
  static async forRoot(): Promise<DynamicModule> {
    return { module: WorkerModulesBundle, imports: await workerModules() };
  }
}

/** The worker process: queue consumers, and no HTTP layer beyond its live/ready listener. */
@Module({})
export class WorkerModule {
  static async forRoot(config: AppConfig): Promise<DynamicModule> {
    return {
      module: WorkerModule,
      imports: [...coreImports(config), ...(await workerModules()), WorkerHealthModule],
      providers: [BoundedWorkerDrain, ShutdownLog],
    };
  }
}
