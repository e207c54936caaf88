import { Injectable, OnModuleInit } from '@nestjs/common';
import { SharedSkillReadPolicies, type WorkspaceUser } from '../../workspace/index.js';
import { isSkillSlug } from '../package/skill-slug.js';
import { canReadSkill } from './skill-access.js';
import { SkillsRepository } from './skills.repository.js';

/**
 * What the workspace asks before an agent reads `/home/gem/skills/<slug>/…` (read-only there): an
 * enabled shared or builtin skill the user may read. Connected once per process at module init.
 */
@Injectable()
export class SkillReadPolicy implements OnModuleInit {
  constructor(
    private readonly policies: SharedSkillReadPolicies,
    private readonly skills: SkillsRepository,
  ) {}

  onModuleInit(): void {
    this.policies.connect(this);
  }

  async canRead(user: WorkspaceUser, slug: string): Promise<boolean> {
    if (!isSkillSlug(slug)) return false;
    const row = await this.skills.findBySlug(slug);
    return row !== null && row.enabled && canReadSkill(user, row);
  }
}
