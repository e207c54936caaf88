import { DynamicModule, Module } from '@nestjs/common';
import type { AppConfig } from './config/app-config.js';
import { coreImports } from './core-imports.js';
import { AgentRuntimeModule } from './modules/agent-runtime/index.js';
import { AgentsModule } from './modules/agents/index.js';
import { ArtifactsModule } from './modules/artifacts/index.js';
import { AuthModule } from './modules/auth/index.js';
import { HealthModule } from './modules/health/index.js';
import { ImprovementMarksModule } from './modules/improvement-marks/index.js';
import { KnowledgeMcpModule, KnowledgeModule } from './modules/knowledge/index.js';
import { McpModule } from './modules/mcp/index.js';
import { OcrModule } from './modules/ocr/index.js';
import { SandboxModule } from './modules/sandbox/index.js';
import { SkillsModule } from './modules/skills/index.js';
import { WebSearchModule } from './modules/web-search/index.js';
import { SchedulesModule } from './modules/schedules/index.js';
import { ThreadsModule } from './modules/threads/index.js';
import { ToolsModule } from './modules/tools/index.js';
import { WorkspaceModule } from './modules/workspace/index.js';
import { UsersModule } from './modules/users/index.js';
import { ShutdownLog } from './bootstrap/shutdown-log.js';
import { BoundedWorkerDrain } from './queue/bounded-worker-drain.js';
import { MetricsEndpointModule } from './observability/metrics/index.js';

/**
 * The worker modules of `APP_ROLE=all`, loaded only then: an API process never imports the worker's code
 * (the graph, the model client, the checkpointer), which keeps its start short.
 */
const workerModules = () => import('./worker.module.js').then((m) => m.WorkerModulesBundle.forRoot());

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
        SandboxModule,
        WebSearchModule,
        ThreadsModule,
        AgentsModule,
        AgentRuntimeModule,
        ImprovementMarksModule,
        SkillsModule,
        McpModule,
        KnowledgeModule,
        KnowledgeMcpModule,
        SchedulesModule,
        MetricsEndpointModule.forRoot(config),
        ...(runsWorkers ? [workerModules()] : []),
      ],
      providers: [ShutdownLog, ...(runsWorkers ? [BoundedWorkerDrain] : [])],
    };
  }
}
