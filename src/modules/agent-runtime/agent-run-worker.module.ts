import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/agents.module.js';
import { ArtifactsModule } from '../artifacts/artifacts.module.js';
import { ImprovementMarksToolModule } from '../improvement-marks/improvement-marks-tool.module.js';
import { OcrModule } from '../ocr/ocr.module.js';
import { ToolsModule } from '../tools/tools.module.js';
import { WorkspaceModule } from '../workspace/workspace.module.js';
import { RunAuthorization } from './assembly/run-authorization.js';
import { RunContextPreparer } from './assembly/run-context-preparer.js';
import { ToolAssembler } from './assembly/tool-assembler.js';
import { Checkpointer } from './graph/checkpointer.js';
import { ChatModelFactory } from './model/chat-model.factory.js';
import { RunAssemblyPortsModule } from './run-assembly-ports.module.js';
import { RunsCoreModule } from './runs-core.module.js';
import { ActiveRuns } from './worker/active-runs.js';
import { AgentRunsProcessor } from './worker/agent-runs.processor.js';
import { RunExecutor } from './worker/run-executor.js';
import { RunLogContext } from './worker/run-log-context.js';
import { RunReconciler } from './worker/run-reconciler.js';

/**
 * Worker side of runs: the `agent-runs` consumer, the executor (assembly, graph, checkpointer, model,
 * tools) and the reconciler. Imports every module that registers tools, so a worker process can
 * execute them.
 */
@Module({
  imports: [
    RunsCoreModule,
    RunAssemblyPortsModule,
    ToolsModule,
    AgentsModule,
    WorkspaceModule,
    ArtifactsModule,
    OcrModule,
    ImprovementMarksToolModule,
  ],
  providers: [
    Checkpointer,
    ChatModelFactory,
    RunAuthorization,
    RunContextPreparer,
    ToolAssembler,
    ActiveRuns,
    RunExecutor,
    RunLogContext,
    AgentRunsProcessor,
    RunReconciler,
  ],
})
export class AgentRunWorkerModule {}
