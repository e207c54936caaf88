import { Injectable } from '@nestjs/common';
import type { WorkspaceUser } from './workspace-user.js';

/**
 * Decides which shared or builtin skills (`/home/gem/skills/<slug>/`) a user may read. The Skills
 * module owns share scopes and provides the real policy; until then nothing is readable there.
 */
export interface SharedSkillReadPolicy {
  canRead(user: WorkspaceUser, slug: string): Promise<boolean>;
}

export const SHARED_SKILL_READ_POLICY = Symbol('SharedSkillReadPolicy');

/** Deny by default: no shared skill is readable until a policy that knows the share scopes is provided. */
@Injectable()
export class DenyAllSharedSkillReadPolicy implements SharedSkillReadPolicy {
  canRead(): Promise<boolean> {
    return Promise.resolve(false);
  }
}
