import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ShareActor } from '../../../common/sharing/index.js';
import { AgentResourceCatalog } from '../../agents/index.js';
import { KnowledgeBasesRepository } from '../storage/knowledge-bases.repository.js';

/**
 * The ids an agent's `knowledges` may name: the knowledge bases the user may read. The same answer
 * validates an editor's selection (unknown and unreadable ids alike → `agents.unknown_reference`),
 * fills `configurable_items`, and is intersected with the selection in each run's snapshot.
 */
@Injectable()
export class KnowledgesResourceSource implements OnModuleInit {
  readonly field = 'knowledges' as const;

  constructor(
    private readonly catalog: AgentResourceCatalog,
    private readonly kbs: KnowledgeBasesRepository,
  ) {}

  onModuleInit(): void {
    this.catalog.register(this);
  }

  async usableOptions(actor: ShareActor) {
    const rows = await this.kbs.listReadable(actor);
    return rows.map((row) => ({
      value: row.id,
      label: row.name,
      ...(row.description === '' ? {} : { description: row.description }),
    }));
  }
}
