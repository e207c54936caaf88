import { Injectable } from '@nestjs/common';
import { resolveShareConfig, type ShareConfigInput } from '../../../common/sharing/index.js';
import type { ShareActor, ShareConfig, ShareScope } from '../../../common/sharing/index.js';
import { UserAccounts } from '../../users/index.js';
import { KnowledgeErrors } from '../knowledge.errors.js';

/** Knowledge bases are readable by everyone unless their share config says otherwise. */
export const DEFAULT_KB_READ_SCOPE: ShareScope = { level: 'global' };

/** A submitted share config → the saved one, refused with the knowledge codes (403, 422). */
@Injectable()
export class KbShareConfigPolicy {
  constructor(private readonly users: UserAccounts) {}

  /** `fallbackReadScope`: what an omitted `read_scope` means (global on create, the current one on update). */
  resolve(
    actor: ShareActor,
    creatorId: string | null,
    input: ShareConfigInput,
    fallbackReadScope: ShareScope | null = DEFAULT_KB_READ_SCOPE,
  ): Promise<ShareConfig> {
    const withDefault = {
      ...input,
      read_scope: input.read_scope === undefined ? fallbackReadScope : input.read_scope,
    };
    return resolveShareConfig(actor, creatorId, withDefault, (ids) => this.users.departmentsOf(ids), {
      scopeForbidden: (level) => KnowledgeErrors.shareScopeForbidden(level),
      manageOutsideRead: () => KnowledgeErrors.manageScopeOutsideReadScope(),
    });
  }
}
