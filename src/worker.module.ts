import { DynamicModule, Module } from '@nestjs/common';
import { coreImports } from './core-imports.js';
import type { AppConfig } from './config/app-config.js';
import { AgentRunWorkerModule } from './modules/agent-runtime/index.js';
import { ArtifactsModule } from './modules/artifacts/index.js';
import { ImprovementMarksToolModule } from './modules/improvement-marks/index.js';
import { KnowledgeWorkerModule } from './modules/knowledge/index.js';
import { MaintenanceModule } from './modules/maintenance/index.js';
import { McpRuntimeModule } from './modules/mcp/index.js';
import { OcrModule } from './modules/ocr/index.js';
import { SkillsCoreModule, SkillsInstallToolModule } from './modules/skills/index.js';
import { WebSearchModule } from './modules/web-search/index.js';
import { WorkspaceModule } from './modules/workspace/index.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';

/**
 * What a worker process runs: the modules holding queue consumers, every module that registers tools,
 * so the worker can execute them, and `SkillsCoreModule` (builtin sync at start, the shared-skill read
 * policy the file tools ask).
 */
export const WORKER_MODULES = [
  MaintenanceModule,
  AgentRunWorkerModule,
  WorkspaceModule,
  ArtifactsModule,
  OcrModule,
  WebSearchModule,
  ImprovementMarksToolModule,
  SkillsCoreModule,
  SkillsInstallToolModule,
  McpRuntimeModule,
  KnowledgeWorkerModule,
];

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
