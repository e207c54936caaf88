import { Injectable } from '@nestjs/common';
import { resolveShareConfig, type ShareConfigInput } from '../../../common/sharing/index.js';
import type { ShareActor, ShareConfig } from '../../../common/sharing/index.js';
import { UserAccounts } from '../../users/index.js';
import { SkillsErrors } from '../skills.errors.js';

/** A shared skill's submitted share config → the saved one, refused with the skills' codes (403, 422). */
@Injectable()
export class SkillShareConfigPolicy {
  constructor(private readonly users: UserAccounts) {}

  resolve(actor: ShareActor, creatorId: string | null, input: ShareConfigInput): Promise<ShareConfig> {
    return resolveShareConfig(actor, creatorId, input, (ids) => this.users.departmentsOf(ids), {
      scopeForbidden: (level) => SkillsErrors.shareScopeForbidden(level),
      manageOutsideRead: () => SkillsErrors.manageScopeOutsideReadScope(),
    });
  }
}
