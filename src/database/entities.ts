import { RunEventEntity } from '../modules/agent-runtime/events/run-event.entity.js';
import { MessageEntity } from '../modules/agent-runtime/messages/message.entity.js';
import { RunEntity } from '../modules/agent-runtime/runs/run.entity.js';
import { WaitingPointEntity } from '../modules/agent-runtime/questions/waiting-point.entity.js';
import { AgentEntity } from '../modules/agents/agent.entity.js';
import { ThreadArtifactEntity } from '../modules/artifacts/thread-artifact.entity.js';
import { ApiKeyTombstoneEntity } from '../modules/auth/api-keys/api-key-tombstone.entity.js';
import { ApiKeyEntity } from '../modules/auth/api-keys/api-key.entity.js';
import { ImprovementMarkEntity } from '../modules/improvement-marks/improvement-mark.entity.js';
import { ThreadEntity } from '../modules/threads/thread.entity.js';
import { ToolCallEntity } from '../modules/tools/execution/audit/tool-call.entity.js';
import { DepartmentEntity } from '../modules/users/department.entity.js';
import { UserEntity } from '../modules/users/user.entity.js';
import { WorkspaceUsageEntity } from '../modules/workspace/quota/workspace-usage.entity.js';

/** Every entity, for the application and the migration CLI alike. */
export const ENTITIES = [
  DepartmentEntity,
  UserEntity,
  ApiKeyEntity,
  ApiKeyTombstoneEntity,
  ToolCallEntity,
  ThreadArtifactEntity,
  AgentEntity,
  ThreadEntity,
  RunEntity,
  RunEventEntity,
  MessageEntity,
  ImprovementMarkEntity,
  WaitingPointEntity,
  WorkspaceUsageEntity,
] as const;
