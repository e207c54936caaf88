import { Injectable, Logger } from '@nestjs/common';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toDomainError } from '../../../common/errors/index.js';
import type { VerifiedDelegation } from '../delegation/knowledge-delegation.js';
import { KNOWLEDGE_UNAVAILABLE_RPC_CODE } from '../delegation/knowledge-mcp-protocol.js';
import { KnowledgeErrors } from '../knowledge.errors.js';
import {
  FIND_KB_DOCUMENT_INPUT,
  LIST_KBS_INPUT,
  OPEN_KB_DOCUMENT_INPUT,
  QUERY_KB_INPUT,
  SEARCH_FILE_INPUT,
} from './tools/kb-tool-schemas.js';
import { KnowledgeTools } from './tools/knowledge-tools.js';
import { inKnowledgeToolSpan } from './knowledge-mcp-span.js';
import { mcpServerSdk } from './mcp-server-sdk.js';

const SERVER_INFO = { name: 'knowledge', version: '1.0.0' };
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

/**
 * One MCP server per request (the endpoint is stateless), its tools bound to the request's verified
 * delegation. A tool error is an `isError` result whose text is `{"error": {code, message, details}}`;
 * an unexpected failure says only that it failed. While Knowledge is switched off the server lists no
 * tools and runs none: both answer "unavailable".
 */
@Injectable()
export class KnowledgeMcpServerFactory {
  private readonly logger = new Logger(KnowledgeMcpServerFactory.name);

  constructor(private readonly tools: KnowledgeTools) {}

  create(grant: VerifiedDelegation): McpServer {
    const server = new (mcpServerSdk().McpServer)(SERVER_INFO, { capabilities: { tools: {} } });
    /** Each call continues its caller's trace (`_meta` or the HTTP headers) in a span of its own. */
    const run = (tool: string, extra: { _meta?: Record<string, unknown> }, work: () => Promise<unknown>) =>
      inKnowledgeToolSpan(tool, extra._meta, () => this.result(work));
    server.registerTool(
      'list_kbs',
      {
        description: 'List the knowledge bases this conversation may use: their kb_id, name and description.',
        inputSchema: LIST_KBS_INPUT,
        annotations: READ_ONLY,
      },
      (_args, extra) => run('list_kbs', extra, () => this.tools.listKbs(grant)),
    );
    server.registerTool(
      'query_kb',
      {
        description:
          'Search one knowledge base for passages about a question (Chinese or English). Returns the best chunks first with kb_id, file_id, filename, chunk_index, content and score.',
        inputSchema: QUERY_KB_INPUT,
        annotations: READ_ONLY,
      },
      (args, extra) => run('query_kb', extra, () => this.tools.queryKb(grant, args)),
    );
    server.registerTool(
      'find_kb_document',
      {
        description:
          'Find keywords (or regular expressions with use_regex) in one document of a knowledge base. Returns windows of numbered lines (1-based) around the matching lines.',
        inputSchema: FIND_KB_DOCUMENT_INPUT,
        annotations: READ_ONLY,
      },
      (args, extra) => run('find_kb_document', extra, () => this.tools.findKbDocument(grant, args)),
    );
    server.registerTool(
      'open_kb_document',
      {
        description:
          'Read one document of a knowledge base as numbered lines, a window at a time: start at a 1-based line or at the next_offset of a previous answer.',
        inputSchema: OPEN_KB_DOCUMENT_INPUT,
        annotations: READ_ONLY,
      },
      (args, extra) => run('open_kb_document', extra, () => this.tools.openKbDocument(grant, args)),
    );
    server.registerTool(
      'search_file',
      {
        description:
          'Find files by name in one knowledge base or in all visible ones, a page at a time (total and has_more tell what is left).',
        inputSchema: SEARCH_FILE_INPUT,
        annotations: READ_ONLY,
      },
      (args, extra) => run('search_file', extra, () => this.tools.searchFile(grant, args)),
    );
    return server;
  }

  /** The server answered while Knowledge is switched off: discovery and calls are unavailable. */
  createUnavailable(): Server {
    const sdk = mcpServerSdk();
    const server = new sdk.Server(SERVER_INFO, { capabilities: { tools: {} } });
    const { message } = KnowledgeErrors.unavailable();
    server.setRequestHandler(sdk.ListToolsRequestSchema, () => {
      throw new sdk.McpError(KNOWLEDGE_UNAVAILABLE_RPC_CODE, message);
    });
    server.setRequestHandler(sdk.CallToolRequestSchema, () => errorResult(KnowledgeErrors.unavailable()));
    return server;
  }

  private async result(work: () => Promise<unknown>): Promise<CallToolResult> {
    try {
      return { content: [{ type: 'text', text: JSON.stringify(await work()) }] };
    } catch (error) {
      const shown = toDomainError(error);
      if (shown.kind === 'internal') this.logger.error({ err: error }, 'knowledge tool failed');
      return errorResult(shown);
    }
  }
}

function errorResult(error: {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}): CallToolResult {
  const body = {
    code: error.code,
    message: error.message,
    ...(error.details ? { details: error.details } : {}),
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error: body }) }] };
}
