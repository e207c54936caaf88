import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/index.js';
import { ThreadsModule } from '../threads/index.js';
import { ToolsModule } from '../tools/index.js';
import { WorkspaceModule } from '../workspace/index.js';
import { RunApprovalLoader } from './approvals/run-approval-loader.js';
import { RunContextPreparer } from './assembly/run-context-preparer.js';
import { ToolAssembler } from './assembly/tool-assembler.js';
import { Checkpointer } from './graph/checkpointer.js';
import { ChatModelFactory } from './model/chat-model.factory.js';
import { RunAssemblyPortsModule } from './run-assembly-ports.module.js';
import { RunAuthorizationModule } from './run-authorization.module.js';
import { RunsCoreModule } from './runs-core.module.js';
import { SubagentsModule } from './subagents/subagents.module.js';
import { ActiveRuns } from './worker/active-runs.js';
import { AgentRunsProcessor } from './worker/agent-runs.processor.js';
import { RunEndingRecorder } from './worker/run-ending-recorder.js';
import { RunExecutor } from './worker/run-executor.js';
import { RunGraphExecution } from './worker/run-graph-execution.js';
import { RunLogContext } from './worker/run-log-context.js';
import { RunReconciler } from './worker/run-reconciler.js';
import { RunSnapshotAndTools } from './worker/run-snapshot-and-tools.js';
import { ToolEventsToRunEvents } from './worker/tool-events-to-run-events.js';
import { ThreadCompactionProcessor } from './worker/thread-compaction.processor.js';
import { ThreadCompactor } from './worker/thread-compactor.js';

/**
 * Worker side of runs: the `agent-runs` consumer, the executor (assembly, graph, checkpointer, model,
 * tools) and the reconciler. The modules that register tools are composed next to it by the worker
 * process (`workerModules()` in `src/worker.module.ts`), so this module depends on none of them.
 */
@Module({
  imports: [
    RunsCoreModule,
    RunAssemblyPortsModule,
    RunAuthorizationModule,
    ToolsModule,
    AgentsModule,
    ThreadsModule,
    SubagentsModule,
    // The summaries of compressed histories are saved in the thread's workdir.
    WorkspaceModule,
  ],
  providers: [
    Checkpointer,
    ChatModelFactory,
    RunContextPreparer,
    ToolAssembler,
    ActiveRuns,
    RunSnapshotAndTools,
    RunGraphExecution,
    RunApprovalLoader,
    RunEndingRecorder,
    RunExecutor,
    ToolEventsToRunEvents,
    RunLogContext,
    AgentRunsProcessor,
    RunReconciler,
    ThreadCompactor,
    ThreadCompactionProcessor,
  ],
})
export class AgentRunWorkerModule {}
