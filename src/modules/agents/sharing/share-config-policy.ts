import { Injectable } from '@nestjs/common';
import { resolveShareConfig, type ShareConfigInput } from '../../../common/sharing/index.js';
import type { ShareActor, ShareConfig } from '../../../common/sharing/index.js';
import { UserAccounts } from '../../users/index.js';
import { AgentsErrors } from '../agents.errors.js';

/** An agent's submitted share config → the saved one, refused with the agents' codes (403, 422). */
@Injectable()
export class ShareConfigPolicy {
  constructor(private readonly users: UserAccounts) {}

  resolve(actor: ShareActor, creatorId: string | null, input: ShareConfigInput): Promise<ShareConfig> {
    return resolveShareConfig(actor, creatorId, input, (ids) => this.users.departmentsOf(ids), {
      scopeForbidden: (level) => AgentsErrors.shareScopeForbidden(level),
      manageOutsideRead: () => AgentsErrors.manageScopeOutsideReadScope(),
    });
  }
}
