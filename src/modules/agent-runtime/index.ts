// The agent-runtime module's front door: what other modules may use. Everything else is internal.
import { RunEventEntity } from './events/run-event.entity.js';
import { MessageEntity } from './messages/message.entity.js';
import { WaitingPointEntity } from './questions/waiting-point.entity.js';
import { RunEntity } from './runs/run.entity.js';
import { ThreadToolApprovalEntity } from './approvals/thread-tool-approval.entity.js';
import { ModelUsageEntity } from './usage/model-usage.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const AGENT_RUNTIME_ENTITIES = [
  RunEntity,
  RunEventEntity,
  MessageEntity,
  WaitingPointEntity,
  ThreadToolApprovalEntity,
  ModelUsageEntity,
];

export { AgentRuntimeModule } from './agent-runtime.module.js';
/** The worker side (graph, model client, checkpointer), loaded only by a process that runs workers. */
export const loadAgentRunWorkerModule = () =>
  import('./agent-run-worker.module.js').then((m) => m.AgentRunWorkerModule);
export { RunsCoreModule } from './runs-core.module.js';
export { RunStartModule } from './run-start.module.js';
export { RunStarter } from './runs/run-starter.js';
export { CheckpointRetentionModule } from './checkpoints/checkpoint-retention.module.js';
export { CheckpointPruning } from './checkpoints/checkpoint-pruning.js';
export { RunAuthorizationModule } from './run-authorization.module.js';
export { RunAuthorization } from './assembly/run-authorization.js';
export { RunTransitions } from './runs/run-transitions.js';
export { WaitingPoints } from './questions/waiting-points.js';
export { RunAssemblyPortsModule } from './run-assembly-ports.module.js';
export { RunToolSources } from './assembly/run-tool-sources.js';
export type {
  OfferedTool,
  ToolSourceContext,
  ToolSourceOutput,
  UnavailableComponent,
} from './assembly/run-tool-sources.js';
export { RunSkills } from './assembly/run-skills.js';
export type { ResolvedRunSkills, RunSkill, RunSkillResolver } from './assembly/run-skills.js';
export { ToolVisibility } from './assembly/tool-visibility.js';
export type { ToolVisibilityPolicy, VisibilityContext } from './assembly/tool-visibility.js';
