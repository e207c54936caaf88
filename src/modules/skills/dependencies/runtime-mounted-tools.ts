import { SUBAGENT_TOOL_NAMES } from '../../tools/index.js';
import type { SkillDependencies } from '../package/skill-md.js';
import { SkillsErrors } from '../skills.errors.js';

/**
 * Tools the runtime mounts by itself (the subagent tools, for an agent that has subagents). A skill
 * naming one would offer it a second time in those runs, and a tool offered twice fails the run.
 */
export const isRuntimeMountedTool = (name: string): boolean => SUBAGENT_TOOL_NAMES.has(name);

/** Refuses (422) `tool_dependencies` that name a runtime-mounted tool; personal and shared skills alike. */
export function refuseRuntimeMountedTools(deps: Pick<SkillDependencies, 'tool_dependencies'>): void {
  const mounted = deps.tool_dependencies.filter(isRuntimeMountedTool);
  if (mounted.length > 0) throw SkillsErrors.reservedToolDependency(mounted);
}
