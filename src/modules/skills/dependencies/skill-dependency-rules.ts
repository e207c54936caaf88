import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { scopeWithin } from '../../../common/sharing/index.js';
import type { ShareConfig, ShareScope } from '../../../common/sharing/index.js';
import { ToolRegistry } from '../../tools/index.js';
import { UserAccounts } from '../../users/index.js';
import type { SkillDependencies } from '../package/skill-md.js';
import { SkillsErrors } from '../skills.errors.js';
import type { SkillEntity } from '../storage/skill.entity.js';
import { SkillsRepository } from '../storage/skills.repository.js';
import { findCycle } from './dependency-cycle.js';
import { KNOWLEDGE_TOOL_NAMES } from './knowledge-tool-names.js';
import { refuseRuntimeMountedTools } from './runtime-mounted-tools.js';
import { SkillDependencyCatalog } from './skill-dependency-catalog.js';

/** Who reads the skill whose dependencies are checked: its creator and its share config. */
export interface DependentSkill {
  slug: string;
  ownerId: string | null;
  builtin: boolean;
  shareConfig: ShareConfig;
}

/**
 * The rules of a shared skill's dependencies, checked on every write (the caller holds
 * `SkillsRepository.lockCatalog`): tools are registered local tools other than the knowledge tools, MCP
 * servers exist, skills are indexed skills readable by everyone who reads the dependent one, and the
 * skill graph stays acyclic (self references included). Refusals are 422 naming the field and the ids.
 */
@Injectable()
export class SkillDependencyRules {
  constructor(
    private readonly registry: ToolRegistry,
    private readonly catalog: SkillDependencyCatalog,
    private readonly skills: SkillsRepository,
    private readonly users: UserAccounts,
  ) {}

  async check(skill: DependentSkill, deps: SkillDependencies, manager: EntityManager): Promise<void> {
    refuseRuntimeMountedTools(deps);
    const tools = new Set(this.registry.list().map((tool) => tool.metadata.name));
    const knowledge = deps.tool_dependencies.filter((name) => KNOWLEDGE_TOOL_NAMES.has(name));
    if (knowledge.length > 0) {
      throw SkillsErrors.unknownDependency(
        'tool_dependencies',
        knowledge,
        'knowledge tools come with mcp_dependencies: ["knowledge"]',
      );
    }
    const unknownTools = deps.tool_dependencies.filter((name) => !tools.has(name));
    if (unknownTools.length > 0) {
      throw SkillsErrors.unknownDependency('tool_dependencies', unknownTools, 'not a registered local tool');
    }
    const servers = await this.catalog.existingMcpServers(deps.mcp_dependencies);
    const unknownServers = deps.mcp_dependencies.filter((slug) => !servers.has(slug));
    if (unknownServers.length > 0) {
      throw SkillsErrors.unknownDependency('mcp_dependencies', unknownServers, 'not an MCP server');
    }
    if (deps.skill_dependencies.includes(skill.slug))
      throw SkillsErrors.dependencyCycle([skill.slug, skill.slug]);
    const rows = new Map(
      (await this.skills.findBySlugs(deps.skill_dependencies, manager)).map((row) => [row.slug, row]),
    );
    const missing = deps.skill_dependencies.filter((slug) => !rows.has(slug));
    if (missing.length > 0)
      throw SkillsErrors.unknownDependency('skill_dependencies', missing, 'not a shared skill');
    const narrower: string[] = [];
    for (const row of rows.values())
      if (!(await this.readableByAllReaders(skill, row))) narrower.push(row.slug);
    if (narrower.length > 0) {
      throw SkillsErrors.unknownDependency(
        'skill_dependencies',
        narrower,
        'not readable by everyone who can read this skill',
      );
    }
    const graph = await this.skills.dependencyGraph(manager);
    graph.set(skill.slug, deps.skill_dependencies);
    const cycle = findCycle(skill.slug, graph);
    if (cycle !== null) throw SkillsErrors.dependencyCycle(cycle);
  }

  /** After `updated`'s share config changed: every skill depending on it must still have all its readers covered. */
  async checkDependents(updated: SkillEntity, manager: EntityManager): Promise<void> {
    const narrowed: string[] = [];
    for (const dependent of await this.skills.findDependents(updated.slug, manager)) {
      const subject = {
        slug: dependent.slug,
        ownerId: dependent.ownerId,
        builtin: dependent.sourceType === 'builtin',
        shareConfig: dependent.shareConfig,
      };
      if (!(await this.readableByAllReaders(subject, updated))) narrowed.push(dependent.slug);
    }
    if (narrowed.length > 0) {
      throw SkillsErrors.unknownDependency(
        'share_config',
        narrowed,
        'these skills depend on this one and have readers outside the new scope',
      );
    }
  }

  /** Everyone who reads `skill` (its creator, read and manage scopes) also reads `dependency`. */
  private async readableByAllReaders(skill: DependentSkill, dependency: SkillEntity): Promise<boolean> {
    if (dependency.sourceType === 'builtin') return true;
    if (skill.builtin) return false;
    const readers: ShareScope[] = [];
    if (skill.ownerId !== null) readers.push({ level: 'users', user_ids: [skill.ownerId] });
    for (const scope of [skill.shareConfig.read_scope, skill.shareConfig.manage_scope])
      if (scope !== null) readers.push(scope);
    const departmentsOf = (ids: string[]) => this.users.departmentsOf(ids);
    const depScopes = [dependency.shareConfig.read_scope, dependency.shareConfig.manage_scope];
    for (const scope of readers) {
      if (scope.level === 'users') {
        for (const id of scope.user_ids) {
          if (id === dependency.ownerId) continue;
          const single: ShareScope = { level: 'users', user_ids: [id] };
          let covered = false;
          for (const outer of depScopes) if (await scopeWithin(single, outer, departmentsOf)) covered = true;
          if (!covered) return false;
        }
        continue;
      }
      let covered = false;
      for (const outer of depScopes) if (await scopeWithin(scope, outer, departmentsOf)) covered = true;
      if (!covered) return false;
    }
    return true;
  }
}
