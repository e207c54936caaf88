import { Injectable } from '@nestjs/common';
import type { WorkspaceUser } from './workspace-user.js';

/**
 * Decides which shared or builtin skills (`/home/gem/skills/<slug>/`) a user may read. The Skills
 * module owns share scopes and connects the real policy at startup.
 */
export interface SharedSkillReadPolicy {
  canRead(user: WorkspaceUser, slug: string): Promise<boolean>;
}

/** Holds the connected policy; deny by default: no shared skill is readable until one is connected. */
@Injectable()
export class SharedSkillReadPolicies implements SharedSkillReadPolicy {
  private policy: SharedSkillReadPolicy | null = null;

  connect(policy: SharedSkillReadPolicy): void {
    if (this.policy !== null) throw new Error('a shared skill read policy is already connected');
    this.policy = policy;
  }

  canRead(user: WorkspaceUser, slug: string): Promise<boolean> {
    return this.policy === null ? Promise.resolve(false) : this.policy.canRead(user, slug);
  }
}
