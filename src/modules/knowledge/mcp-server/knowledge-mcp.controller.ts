import { Controller, Delete, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../../../common/auth/auth.decorators.js';
import { KNOWLEDGE_MCP_PATH } from '../delegation/knowledge-mcp-protocol.js';
import { KnowledgeMcpRequestHandler } from './knowledge-mcp-request-handler.js';
import { KnowledgeMcpRequestGuard, type DelegatedRequest } from './knowledge-mcp-request.guard.js';

/**
 * `POST /mcp/knowledge`: the builtin knowledge MCP server over streamable HTTP, outside `/api` and its
 * user authentication (`@Public`): only delegation tokens get in. Stateless, so there is no event
 * stream to open (GET) and no session to end (DELETE). Not in Swagger: it speaks MCP, not REST.
 */
@ApiExcludeController()
@Public()
@UseGuards(KnowledgeMcpRequestGuard)
@Controller(KNOWLEDGE_MCP_PATH)
export class KnowledgeMcpController {
  constructor(private readonly handler: KnowledgeMcpRequestHandler) {}

  @Post()
  async post(@Req() req: DelegatedRequest, @Res() res: Response): Promise<void> {
    await this.handler.handle(req, res, req.knowledgeDelegation!);
  }

  @Get()
  noEventStream(@Res() res: Response): void {
    this.handler.methodNotAllowed(res);
  }

  @Delete()
  noSession(@Res() res: Response): void {
    this.handler.methodNotAllowed(res);
  }
}
