import { Module } from '@nestjs/common';
import { RunAuthorizationModule } from '../../agent-runtime/index.js';
import { KnowledgeDelegationModule } from '../delegation/knowledge-delegation.module.js';
import { KnowledgeCoreModule } from '../knowledge-core.module.js';
import { KbDocumentsRepository } from './kb-documents.repository.js';
import { KnowledgeMcpController } from './knowledge-mcp.controller.js';
import { KnowledgeMcpRequestHandler } from './knowledge-mcp-request-handler.js';
import { KnowledgeMcpRequestGuard } from './knowledge-mcp-request.guard.js';
import { KnowledgeMcpServerFactory } from './knowledge-mcp-server.factory.js';
import { KnowledgeScope } from './knowledge-scope.js';
import { KnowledgeTools } from './tools/knowledge-tools.js';

/** The builtin knowledge MCP endpoint (`/mcp/knowledge`), served by the API process. */
@Module({
  imports: [KnowledgeCoreModule, KnowledgeDelegationModule, RunAuthorizationModule],
  controllers: [KnowledgeMcpController],
  providers: [
    KbDocumentsRepository,
    KnowledgeScope,
    KnowledgeTools,
    KnowledgeMcpServerFactory,
    KnowledgeMcpRequestHandler,
    KnowledgeMcpRequestGuard,
  ],
})
export class KnowledgeMcpModule {}
