import { Injectable } from '@nestjs/common';
import { AgentsErrors } from '../agents.errors.js';
import { AgentResourceCatalog } from '../resources/agent-resource-catalog.js';
import type { ShareActor } from '../../../common/sharing/index.js';
import {
  ALL,
  APPROVAL_FIELD,
  RESOURCE_FIELDS,
  type AgentConfig,
  type AgentConfigInput,
  type ApprovalPolicyInput,
} from './agent-config.js';
import { editableFields } from './agent-config-fields.js';
import { mergeSelection } from './selection-merge.js';

/**
 * Applies an editor's submitted config to a saved one: fields the editor may not change are dropped
 * silently (their saved value stays), resource fields follow the merge rules of `mergeSelection`, other
 * fields are replaced, and references the editor cannot use are refused (422, existence not revealed).
 */
@Injectable()
export class AgentConfigEditor {
  constructor(private readonly catalog: AgentResourceCatalog) {}

  /** `fresh`: a new agent, so submitted lists replace the defaults instead of merging with them. */
  async apply(
    actor: ShareActor,
    saved: AgentConfig,
    submitted: AgentConfigInput,
    { fresh = false }: { fresh?: boolean } = {},
  ): Promise<AgentConfig> {
    const allowed = new Set(editableFields(actor.role).map((metadata) => metadata.field));
    const next: AgentConfig = { ...saved };
    if (submitted.system_prompt !== undefined && allowed.has('system_prompt'))
      next.system_prompt = submitted.system_prompt;
    if (submitted.model !== undefined && allowed.has('model')) next.model = submitted.model;
    if (submitted.max_execution_steps !== undefined && allowed.has('max_execution_steps'))
      next.max_execution_steps = submitted.max_execution_steps;
    // Replaced whole and stored as sent (a plain copy of the validated DTO); defaults fill in when read.
    if (submitted.approval !== undefined && allowed.has(APPROVAL_FIELD))
      next.approval = JSON.parse(JSON.stringify(submitted.approval)) as ApprovalPolicyInput;

    const added = new Map<string, string[]>();
    for (const field of RESOURCE_FIELDS) {
      const value = submitted[field];
      if (value === undefined || !allowed.has(field)) continue;
      // Ids every agent has anyway (the base tools) are accepted and kept as sent.
      const usable = await this.catalog.usableIds(field, actor);
      for (const id of this.catalog.implicitIds(field)) usable.add(id);
      const merged = mergeSelection(fresh ? [] : saved[field], value, usable);
      if (merged.rejected.length > 0) throw AgentsErrors.unknownReference(field, merged.rejected);
      next[field] = merged.value;
      added.set(field, value === ALL ? [] : value.filter((id) => usable.has(id)));
    }
    this.assertPreloadWithinSkills(next, added.get('preload_skills') ?? []);
    return next;
  }

  /** Newly chosen preload skills must be among the selected skills (any usable one when skills is "all"). */
  private assertPreloadWithinSkills(config: AgentConfig, addedPreloads: string[]): void {
    if (config.skills === ALL) return;
    const skills = new Set(config.skills);
    const outside = addedPreloads.filter((id) => !skills.has(id));
    if (outside.length > 0) throw AgentsErrors.unknownReference('preload_skills', outside);
  }
}
