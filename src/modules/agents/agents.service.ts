import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import { AppConfig } from '../../config/app-config.js';
import { isUniqueViolation } from '../../database/unique-violation.js';
import type { AgentEntity } from './agent.entity.js';
import { AgentsErrors } from './agents.errors.js';
import { AgentsRepository, type AgentChanges, type NewAgent } from './agents.repository.js';
import { ALL, defaultAgentConfig, type AgentConfig } from './config/agent-config.js';
import { AgentConfigEditor } from './config/agent-config-editor.js';
import { firstFreeSlug, slugFromName } from './config/agent-slug.js';
import { type FormLanguage } from './config/agent-config-fields.js';
import { ConfigurableItems } from './config/configurable-items.js';
import { AgentDto, AgentSummaryDto } from './dto/agent.dto.js';
import type { CreateAgentDto } from './dto/create-agent.dto.js';
import type { ListAgentsQueryDto } from './dto/list-agents-query.dto.js';
import type { UpdateAgentDto } from './dto/update-agent.dto.js';
import { canManage, canRead, type ShareActor } from '../../common/sharing/index.js';
import { ShareConfigPolicy } from './sharing/share-config-policy.js';

/** An agent the runtime may run for a user: its saved config, to intersect with the user's resources. */
export interface UsableAgent {
  id: string;
  slug: string;
  name: string;
  isSubagent: boolean;
  builtin: boolean;
  ownerId: string | null;
  config: AgentConfig;
}

/**
 * Whether `actor` may run the agent with this id now: `deleted` when no such agent exists any more,
 * `denied` when it exists but they may not read it. Anything else (a database outage) is thrown.
 */
export type AgentAccess = { kind: 'usable'; agent: UsableAgent } | { kind: 'deleted' } | { kind: 'denied' };

const SLUG_ATTEMPTS = 5;

@Injectable()
export class AgentsService {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly editor: AgentConfigEditor,
    private readonly sharing: ShareConfigPolicy,
    private readonly items: ConfigurableItems,
    private readonly appConfig: AppConfig,
  ) {}

  async create(actor: ShareActor, input: CreateAgentDto, language: FormLanguage = 'en'): Promise<AgentDto> {
    const defaults = defaultAgentConfig(this.appConfig.llm.defaultModel);
    const agent: Omit<NewAgent, 'slug'> = {
      name: input.name,
      description: input.description ?? null,
      isSubagent: input.is_subagent ?? false,
      builtin: false,
      ownerId: actor.id,
      config: await this.editor.apply(actor, defaults, input.config ?? {}, { fresh: true }),
      shareConfig: await this.sharing.resolve(actor, actor.id, input.share_config ?? { version: 2 }),
    };
    return this.present(actor, await this.insertWithSlug(agent, input.slug), language);
  }

  async list(actor: ShareActor, query: ListAgentsQueryDto): Promise<Page<AgentSummaryDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.agents.listReadablePage(actor, query.include_subagents, query.limit, after);
    return toPage(rows, query.limit, (agent) => AgentSummaryDto.from(agent, permissionOf(actor, agent)));
  }

  async get(actor: ShareActor, slug: string, language: FormLanguage = 'en'): Promise<AgentDto> {
    return this.present(actor, await this.readable(actor, slug), language);
  }

  async update(
    actor: ShareActor,
    slug: string,
    input: UpdateAgentDto,
    language: FormLanguage = 'en',
  ): Promise<AgentDto> {
    const agent = await this.manageable(actor, slug);
    const updated = await this.agents.updateLocked(agent.id, async (current) => {
      const changes: AgentChanges = {};
      if (input.name !== undefined) changes.name = input.name;
      if (input.description !== undefined) changes.description = input.description;
      if (input.config !== undefined)
        changes.config = await this.editor.apply(actor, current.config, input.config);
      if (input.share_config !== undefined)
        changes.shareConfig = await this.sharing.resolve(actor, current.ownerId, input.share_config);
      return changes;
    });
    if (updated === null) throw AgentsErrors.notFound(slug);
    return this.present(actor, updated, language);
  }

  async remove(actor: ShareActor, slug: string): Promise<void> {
    const agent = await this.manageable(actor, slug);
    if (agent.builtin) throw AgentsErrors.builtinImmutable(slug);
    await this.agents.deleteById(agent.id);
  }

  /** Agent names by id for a report; a deleted agent has none. */
  namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    return this.agents.namesByIds(ids);
  }

  /** The agent `actor` may run, with its saved config; null when there is none they may read. */
  async findUsable(actor: ShareActor, slug: string): Promise<UsableAgent | null> {
    const agent = await this.agents.findReadableBySlug(actor, slug);
    return agent === null ? null : usable(agent);
  }

  /**
   * The agent with this id as `actor` may run it now (what runs use: a thread is bound to an id). Given
   * a transaction's `manager`, the row is read in it and locked FOR SHARE until it ends.
   */
  async accessById(actor: ShareActor, id: string, manager?: EntityManager): Promise<AgentAccess> {
    return (await this.accessJudgeById(id, manager))(actor);
  }

  /**
   * `accessById` in two halves: the row is read now, the actor judged later, so a caller can read the
   * actor at the same time as the agent.
   */
  async accessJudgeById(id: string, manager?: EntityManager): Promise<(actor: ShareActor) => AgentAccess> {
    const agent = await this.agents.findById(id, manager);
    return (actor) => {
      if (agent === null) return { kind: 'deleted' };
      return canRead(actor, agent) ? { kind: 'usable', agent: usable(agent) } : { kind: 'denied' };
    };
  }

  /**
   * Appends skills just installed for `ownerId` to the explicit skills list of their own agent `id`
   * (the `install_skill` tool). Nothing changes when the agent is not theirs (`not_owner`), selects all
   * skills (`all`: the new ones apply already) or is gone.
   */
  async appendOwnSkills(
    ownerId: string,
    id: string,
    slugs: readonly string[],
  ): Promise<'appended' | 'not_owner' | 'all' | 'deleted'> {
    let outcome: 'appended' | 'not_owner' | 'all' = 'appended';
    const updated = await this.agents.updateLocked(id, (current) => {
      const saved = current.config.skills;
      if (current.ownerId !== ownerId || current.builtin) outcome = 'not_owner';
      else if (saved === ALL) outcome = 'all';
      if (outcome !== 'appended' || saved === ALL) return Promise.resolve({});
      const skills = [...saved, ...slugs.filter((slug) => !saved.includes(slug))];
      return Promise.resolve({ config: { ...current.config, skills } });
    });
    return updated === null ? 'deleted' : outcome;
  }

  private async readable(actor: ShareActor, slug: string): Promise<AgentEntity> {
    const agent = await this.agents.findReadableBySlug(actor, slug);
    if (agent === null) throw AgentsErrors.notFound(slug);
    return agent;
  }

  private async manageable(actor: ShareActor, slug: string): Promise<AgentEntity> {
    const agent = await this.readable(actor, slug);
    if (!canManage(actor, agent)) throw AgentsErrors.manageForbidden(slug);
    return agent;
  }

  /** The agent as `actor` sees it, with the edit form (in `language`) when they manage it. */
  private async present(actor: ShareActor, agent: AgentEntity, language: FormLanguage): Promise<AgentDto> {
    const permission = permissionOf(actor, agent);
    const items = permission === 'manage' ? await this.items.forEditor(actor, agent.config, language) : [];
    return { ...AgentSummaryDto.from(agent, permission), configurable_items: items };
  }

  /** An explicit slug must be free (409); a generated one takes the next free `-N` suffix. */
  private async insertWithSlug(
    agent: Omit<NewAgent, 'slug'>,
    explicit: string | undefined,
  ): Promise<AgentEntity> {
    if (explicit !== undefined) {
      try {
        return await this.agents.insert({ ...agent, slug: explicit });
      } catch (error) {
        if (isUniqueViolation(error, 'agents_slug_key')) throw AgentsErrors.slugTaken(explicit);
        throw error;
      }
    }
    const base = slugFromName(agent.name);
    for (let attempt = 1; ; attempt++) {
      const slug = firstFreeSlug(base, await this.agents.slugsLike(base));
      try {
        return await this.agents.insert({ ...agent, slug });
      } catch (error) {
        if (!isUniqueViolation(error, 'agents_slug_key') || attempt >= SLUG_ATTEMPTS) throw error;
      }
    }
  }
}

function usable(agent: AgentEntity): UsableAgent {
  const { id, slug, name, isSubagent, builtin, ownerId, config } = agent;
  return { id, slug, name, isSubagent, builtin, ownerId, config };
}

function permissionOf(actor: ShareActor, agent: AgentEntity): 'read' | 'manage' {
  return canManage(actor, agent) ? 'manage' : 'read';
}
