import { AGENT_RUNTIME_ENTITIES } from './modules/agent-runtime/index.js';
import { AGENTS_ENTITIES } from './modules/agents/index.js';
import { ARTIFACTS_ENTITIES } from './modules/artifacts/index.js';
import { AUTH_ENTITIES } from './modules/auth/index.js';
import { KNOWLEDGE_ENTITIES } from './modules/knowledge/index.js';
import { IMPROVEMENT_MARKS_ENTITIES } from './modules/improvement-marks/index.js';
import { SCHEDULES_ENTITIES } from './modules/schedules/index.js';
import { SKILLS_ENTITIES } from './modules/skills/index.js';
import { MCP_ENTITIES } from './modules/mcp/index.js';
import { THREADS_ENTITIES } from './modules/threads/index.js';
import { TOOLS_ENTITIES } from './modules/tools/index.js';
import { USERS_ENTITIES } from './modules/users/index.js';
import { WEB_SEARCH_ENTITIES } from './modules/web-search/index.js';
import { WORKSPACE_ENTITIES } from './modules/workspace/index.js';

/**
 * Every entity, for the application and the migration CLI alike: each module names its own tables in
 * its front door; `src/database` takes the list as a parameter and knows no module.
 */
export const ENTITIES = [
  ...USERS_ENTITIES,
  ...AUTH_ENTITIES,
  ...TOOLS_ENTITIES,
  ...ARTIFACTS_ENTITIES,
  ...AGENTS_ENTITIES,
  ...THREADS_ENTITIES,
  ...AGENT_RUNTIME_ENTITIES,
  ...IMPROVEMENT_MARKS_ENTITIES,
  ...WORKSPACE_ENTITIES,
  ...WEB_SEARCH_ENTITIES,
  ...SKILLS_ENTITIES,
  ...MCP_ENTITIES,
  ...KNOWLEDGE_ENTITIES,
  ...SCHEDULES_ENTITIES,
];
