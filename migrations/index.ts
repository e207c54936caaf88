import { Identity1795997710319 } from './1795997710319-Identity.js';
import { ToolCalls1796000694864 } from './1796000694864-ToolCalls.js';
import { ThreadArtifacts1796001606253 } from './1796001606253-ThreadArtifacts.js';
import { Agents1796003600265 } from './1796003600265-Agents.js';
import { Threads1796003776067 } from './1796003776067-Threads.js';
import { Runs1796007390847 } from './1796007390847-Runs.js';
import { WaitingPoints1796012000000 } from './1796012000000-WaitingPoints.js';
import { ImprovementMarks1796015000000 } from './1796015000000-ImprovementMarks.js';
import { UserTokenVersion1796020000000 } from './1796020000000-UserTokenVersion.js';
import { ApiKeyTombstones1796020000001 } from './1796020000001-ApiKeyTombstones.js';
import { ThreadAgentId1796021000000 } from './1796021000000-ThreadAgentId.js';
import { WorkspaceUsage1796023000000 } from './1796023000000-WorkspaceUsage.js';
import { RunRequestIds1796024000000 } from './1796024000000-RunRequestIds.js';
import { McpServers1796030000000 } from './1796030000000-McpServers.js';
import { WebSearchSettings1796031000000 } from './1796031000000-WebSearchSettings.js';
import { Skills1796032000000 } from './1796032000000-Skills.js';
import { SubagentAwaits1796033000000 } from './1796033000000-SubagentAwaits.js';
import { Knowledge1796034000000 } from './1796034000000-Knowledge.js';
import { LongToolCallNames1796036000000 } from './1796036000000-LongToolCallNames.js';
import { LongImprovementMarkCallIds1796036000001 } from './1796036000001-LongImprovementMarkCallIds.js';
import { SkillDrafts1796038000000 } from './1796038000000-SkillDrafts.js';
import { ToolApproval1796040000000 } from './1796040000000-ToolApproval.js';
import { ModelUsage1796041000000 } from './1796041000000-ModelUsage.js';
import { Schedules1796042000000 } from './1796042000000-Schedules.js';
import { RunTraceContext1796043000000 } from './1796043000000-RunTraceContext.js';
import { RunSlots1796044000000 } from './1796044000000-RunSlots.js';

/**
 * Every migration, in order. `npm run migration:generate` writes a new file next to this one:
 * add it here (a unit test fails when a file in this folder is missing from the list).
 */
export const MIGRATIONS = [
  Identity1795997710319,
  ToolCalls1796000694864,
  ThreadArtifacts1796001606253,
  Agents1796003600265,
  Threads1796003776067,
  Runs1796007390847,
  WaitingPoints1796012000000,
  ImprovementMarks1796015000000,
  UserTokenVersion1796020000000,
  ApiKeyTombstones1796020000001,
  ThreadAgentId1796021000000,
  WorkspaceUsage1796023000000,
  RunRequestIds1796024000000,
  McpServers1796030000000,
  WebSearchSettings1796031000000,
  Skills1796032000000,
  SubagentAwaits1796033000000,
  Knowledge1796034000000,
  LongToolCallNames1796036000000,
  LongImprovementMarkCallIds1796036000001,
  SkillDrafts1796038000000,
  ToolApproval1796040000000,
  ModelUsage1796041000000,
  Schedules1796042000000,
  RunTraceContext1796043000000,
  RunSlots1796044000000,
] as const;
