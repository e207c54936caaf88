import { Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { VerifiedDelegation } from '../delegation/knowledge-delegation.js';
import { KnowledgeSettings } from '../settings/knowledge-settings.js';
import { KnowledgeMcpServerFactory } from './knowledge-mcp-server.factory.js';
import { mcpServerSdk } from './mcp-server-sdk.js';

/**
 * Serves one MCP request: a fresh server and transport (stateless, JSON answers, no session), closed
 * when the response is. Whether Knowledge is switched on is read for every request.
 */
@Injectable()
export class KnowledgeMcpRequestHandler {
  private readonly logger = new Logger(KnowledgeMcpRequestHandler.name);

  constructor(
    private readonly servers: KnowledgeMcpServerFactory,
    private readonly settings: KnowledgeSettings,
  ) {}

  async handle(req: Request, res: Response, grant: VerifiedDelegation): Promise<void> {
    const server = (await this.settings.isEnabled())
      ? this.servers.create(grant)
      : this.servers.createUnavailable();
    const transport = new (mcpServerSdk().StreamableHTTPServerTransport)({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      this.logger.error({ err: error }, 'knowledge MCP request failed');
      if (!res.headersSent) {
        res
          .status(500)
          .json({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id: null });
      }
    }
  }

  methodNotAllowed(res: Response): void {
    res
      .status(405)
      .set('Allow', 'POST')
      .json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
  }
}
