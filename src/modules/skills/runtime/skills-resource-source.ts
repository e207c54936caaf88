import { Injectable, type OnModuleInit } from '@nestjs/common';
import { AgentResourceCatalog } from '../../agents/index.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import { SkillsRepository } from '../storage/skills.repository.js';

/** The ids an agent's `skills` (and `preload_skills`) may name: enabled shared/builtin skills the user may read. */
@Injectable()
export class SkillsResourceSource implements OnModuleInit {
  readonly field = 'skills' as const;

  constructor(
    private readonly catalog: AgentResourceCatalog,
    private readonly repository: SkillsRepository,
  ) {}

  onModuleInit(): void {
    this.catalog.register(this);
  }

  async usableOptions(actor: ShareActor) {
    const rows = await this.repository.listReadable(actor);
    return rows
      .filter((row) => row.enabled)
      .map((row) => ({ value: row.slug, label: row.name, description: row.description }));
  }
}
