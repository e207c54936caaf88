/**
 * What the knowledge MCP endpoint and its client agree on beyond MCP itself. JSON-RPC leaves
 * -32000..-32099 to implementations: this one says "Knowledge is switched off", answered to discovery
 * while `PUT /api/system/settings/knowledge {enabled:false}` holds.
 */
export const KNOWLEDGE_UNAVAILABLE_RPC_CODE = -32003;

/** Where the API process serves the endpoint (outside the `/api` prefix). */
export const KNOWLEDGE_MCP_PATH = 'mcp/knowledge';
