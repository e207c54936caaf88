// The knowledge module's front door: what other modules may use. Everything else is internal.
export { KnowledgeDelegationModule } from './delegation/knowledge-delegation.module.js';
export { KnowledgeDelegation, KNOWLEDGE_MCP_AUDIENCE } from './delegation/knowledge-delegation.js';
export type { DelegationGrant, VerifiedDelegation } from './delegation/knowledge-delegation.js';
export { KNOWLEDGE_MCP_PATH, KNOWLEDGE_UNAVAILABLE_RPC_CODE } from './delegation/knowledge-mcp-protocol.js';
