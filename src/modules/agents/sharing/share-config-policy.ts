import { Injectable } from '@nestjs/common';
import { UserAccounts } from '../../users/index.js';
import { AgentsErrors } from '../agents.errors.js';
import { defaultShareConfig, type AgentActor, type ShareConfig, type ShareScope } from './share-config.js';
import { scopeWithin } from './scope-containment.js';

export interface ShareConfigInput {
  version: 2;
  read_scope?: ShareScope | null;
  manage_scope?: ShareScope | null;
}

/**
 * Turns a submitted share config into the saved one: the read scope defaults to the creator, the manage
 * scope to nobody but the creator. A normal user may only name users (403 otherwise); the manage scope
 * must lie inside the read scope (422).
 */
@Injectable()
export class ShareConfigPolicy {
  constructor(private readonly users: UserAccounts) {}

  async resolve(actor: AgentActor, creatorId: string | null, input: ShareConfigInput): Promise<ShareConfig> {
    const fallback = creatorId === null ? null : defaultShareConfig(creatorId).read_scope;
    const config: ShareConfig = {
      version: 2,
      read_scope: input.read_scope === undefined ? fallback : input.read_scope,
      manage_scope: input.manage_scope ?? null,
    };
    for (const scope of [config.read_scope, config.manage_scope]) {
      if (scope !== null && scope.level !== 'users' && actor.role === 'user') {
        throw AgentsErrors.shareScopeForbidden(scope.level);
      }
    }
    if (
      !(await scopeWithin(config.manage_scope, config.read_scope, (ids) => this.users.departmentsOf(ids)))
    ) {
      throw AgentsErrors.manageScopeOutsideReadScope();
    }
    return config;
  }
}
