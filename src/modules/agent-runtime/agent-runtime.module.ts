import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/index.js';
import { ArtifactsModule } from '../artifacts/index.js';
import { ThreadsModule } from '../threads/index.js';
import { AgentCallsController } from './agent-calls/agent-calls.controller.js';
import { AgentCallsService } from './agent-calls/agent-calls.service.js';
import { ActivatedSkillsReader } from './graph/activated-skills-reader.js';
import { RunEventStreams } from './events/run-event-streams.js';
import { RunEventsController } from './events/run-events.controller.js';
import { RunStreamSlots } from './events/run-stream-slots.js';
import { RunCancellation } from './runs/run-cancellation.js';
import { RunsController } from './runs/runs.controller.js';
import { RunsService } from './runs/runs.service.js';
import { ThreadDeletionGuard } from './runs/thread-deletion-guard.js';
import { ThreadCompactionRequests } from './runs/thread-compaction-request.js';
import { RunsCoreModule } from './runs-core.module.js';
import { RunStartModule } from './run-start.module.js';
import { QuestionsController } from './questions/questions.controller.js';
import { ApprovalsController } from './approvals/approvals.controller.js';
import { SubagentsModule } from './subagents/subagents.module.js';
import { UsageController } from './usage/usage.controller.js';
import { UsageReports } from './usage/usage-reports.js';
import { UsageService } from './usage/usage.service.js';

/** API side of runs: create, read, cancel, stream, messages and state, token usage, and `agent-calls`. */
@Module({
  imports: [AgentsModule, RunsCoreModule, RunStartModule, ThreadsModule, ArtifactsModule, SubagentsModule],
  controllers: [
    RunsController,
    RunEventsController,
    AgentCallsController,
    QuestionsController,
    ApprovalsController,
    UsageController,
  ],
  providers: [
    ActivatedSkillsReader,
    RunsService,
    RunCancellation,
    AgentCallsService,
    RunEventStreams,
    RunStreamSlots,
    ThreadDeletionGuard,
    UsageReports,
    UsageService,
    ThreadCompactionRequests,
  ],
})
export class AgentRuntimeModule {}
