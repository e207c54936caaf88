import { Module } from '@nestjs/common';
import { KnowledgeDelegation } from './knowledge-delegation.js';

/** Delegation tokens: minted by the runtime (worker), verified by the knowledge MCP endpoint (API). */
@Module({
  providers: [KnowledgeDelegation],
  exports: [KnowledgeDelegation],
})
export class KnowledgeDelegationModule {}
