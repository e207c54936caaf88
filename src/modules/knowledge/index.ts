// The knowledge module's front door: what other modules may use. Everything else is internal.
import { KnowledgeSettingsEntity } from './settings/knowledge-settings.entity.js';
import { KnowledgeBaseEntity } from './storage/knowledge-base.entity.js';
import { KnowledgeChunkEntity } from './storage/knowledge-chunk.entity.js';
import { KnowledgeFileEntity } from './storage/knowledge-file.entity.js';
import { KnowledgePostingEntity } from './storage/knowledge-posting.entity.js';

/** The module's tables, for the central entity list (`src/entities.ts`) only. */
export const KNOWLEDGE_ENTITIES = [
  KnowledgeBaseEntity,
  KnowledgeFileEntity,
  KnowledgeChunkEntity,
  KnowledgePostingEntity,
  KnowledgeSettingsEntity,
];

export { KnowledgeModule } from './knowledge.module.js';
export { KnowledgeWorkerModule } from './knowledge-worker.module.js';
export { KnowledgeDelegationModule } from './delegation/knowledge-delegation.module.js';
export { KnowledgeDelegation } from './delegation/knowledge-delegation.js';
export type { DelegationGrant } from './delegation/knowledge-delegation.js';
export { KNOWLEDGE_MCP_PATH, KNOWLEDGE_UNAVAILABLE_RPC_CODE } from './delegation/knowledge-mcp-protocol.js';
export { KnowledgeMcpModule } from './mcp-server/knowledge-mcp.module.js';
