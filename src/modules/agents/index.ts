// The agents module's front door: what other modules may use. Everything else is internal.
import { AgentEntity } from './agent.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const AGENTS_ENTITIES = [AgentEntity];

export { AgentsModule } from './agents.module.js';
export { AgentsService } from './agents.service.js';
export type { UsableAgent } from './agents.service.js';
export { AgentResourceCatalog } from './resources/agent-resource-catalog.js';
export { AgentApprovalPolicies } from './approval/agent-approval-policies.js';
export { ALL, RESOURCE_FIELDS } from './config/agent-config.js';
export type { ResourceField, ResourceSelection } from './config/agent-config.js';
export { AgentsErrorCode } from './agents.errors.js';
export { AGENT_SLUG_MAX, AGENT_SLUG_PATTERN } from './config/agent-slug.js';
