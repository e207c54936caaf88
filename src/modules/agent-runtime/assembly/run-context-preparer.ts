import { Injectable } from '@nestjs/common';
import {
  AgentResourceCatalog,
  ALL,
  RESOURCE_FIELDS,
  type ResourceField,
  type ResourceSelection,
  type UsableAgent,
} from '../../agents/index.js';
import type { RunEntity } from '../runs/run.entity.js';
import type { RunConfigSnapshot, SubagentProfile } from './run-config-snapshot.js';
import { RunSkills, skillsPromptSection } from './run-skills.js';
import { RunAuthorization, type RunActor, type RunSubject } from './run-authorization.js';

export interface PreparedRun {
  actor: RunActor;
  /** The agent as read now (its authorization checked). */
  agent: UsableAgent;
  snapshot: RunConfigSnapshot;
}

/**
 * Step 1 of assembly: the agent's saved selection intersected with what the running user may use now.
 * `"all"` means every resource the user may use; an explicit list keeps only the usable ids, in order.
 */
@Injectable()
export class RunContextPreparer {
  constructor(
    private readonly authorization: RunAuthorization,
    private readonly catalog: AgentResourceCatalog,
    private readonly skills: RunSkills,
  ) {}

  async prepare(run: RunSubject & Pick<RunEntity, 'model'>): Promise<PreparedRun> {
    const { actor, agent } = await this.authorization.actorAndAgent(run);
    // What the user may use, per field: read once (the subagents' options also give their profiles).
    const usable = new Map(
      await Promise.all(
        RESOURCE_FIELDS.map(
          async (field) => [field, await this.catalog.usableOptions(field, actor)] as const,
        ),
      ),
    );
    const fields = Object.fromEntries(
      RESOURCE_FIELDS.map((field) => [field, selected(agent.config[field], usable.get(field)!)]),
    ) as Record<ResourceField, string[]>;
    // Only skills the run may use can be preloaded.
    const skills = new Set(fields.skills);
    fields.preload_skills = fields.preload_skills.filter((slug) => skills.has(slug));
    // Subagents never delegate further, whatever their saved selection says.
    if (agent.isSubagent) fields.subagents = [];
    const runSkills = await this.skills.resolve(actor, fields.skills, fields.preload_skills);
    const subagentProfiles = profilesOf(fields.subagents, usable.get('subagents')!);
    fields.preload_skills = runSkills.preloaded.map((skill) => skill.slug);
    const section = skillsPromptSection(runSkills);
    const prompt = [agent.config.system_prompt, section].filter((part) => part !== '').join('\n\n');
    return {
      actor,
      agent,
      snapshot: {
        agent: { id: agent.id, slug: agent.slug, name: agent.name, is_subagent: agent.isSubagent },
        system_prompt: prompt,
        model: run.model ?? agent.config.model,
        max_execution_steps: agent.config.max_execution_steps,
        ...fields,
        subagent_profiles: subagentProfiles,
        effective_skills: runSkills.skills,
      },
    };
  }
}

type UsableOption = Awaited<ReturnType<AgentResourceCatalog['usableOptions']>>[number];

/** `"all"` means every usable resource; an explicit list keeps only the usable ids, in order. */
function selected(selection: ResourceSelection, usable: readonly UsableOption[]): string[] {
  if (selection === ALL) return usable.map((option) => option.value);
  const ids = new Set(usable.map((option) => option.value));
  return selection.filter((id) => ids.has(id));
}

/** Name and description of each callable subagent, in selection order (for the system prompt). */
function profilesOf(slugs: string[], usable: readonly UsableOption[]): SubagentProfile[] {
  const options = new Map(usable.map((option) => [option.value, option]));
  return slugs.flatMap((slug) => {
    const option = options.get(slug);
    return option === undefined ? [] : [{ slug, name: option.label, description: option.description ?? '' }];
  });
}
