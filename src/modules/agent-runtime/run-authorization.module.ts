import { Module } from '@nestjs/common';
import { AgentsModule } from '../agents/index.js';
import { UsersModule } from '../users/index.js';
import { RunAuthorization } from './assembly/run-authorization.js';

/**
 * "May this run still act?" (`RunAuthorization`), for the worker and for every tool that writes in its
 * own transaction (`mark_for_improvement`, which also runs in the API process).
 */
@Module({
  imports: [UsersModule, AgentsModule],
  providers: [RunAuthorization],
  exports: [RunAuthorization],
})
export class RunAuthorizationModule {}
