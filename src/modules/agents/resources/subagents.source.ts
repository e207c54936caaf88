import { Injectable } from '@nestjs/common';
import { AgentsRepository } from '../agents.repository.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import type { AgentResourceSource, ResourceOption } from './agent-resource-catalog.js';

/** Selectable subagents: the subagents the user can read, by slug. */
@Injectable()
export class SubagentsSource implements AgentResourceSource {
  readonly field = 'subagents' as const;

  constructor(private readonly agents: AgentsRepository) {}

  async usableOptions(actor: ShareActor): Promise<ResourceOption[]> {
    const subagents = await this.agents.listReadableSubagents(actor);
    return subagents.map((agent) => ({
      value: agent.slug,
      label: agent.name,
      ...(agent.description === null ? {} : { description: agent.description }),
    }));
  }
}
