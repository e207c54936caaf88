import type { SkillSource, SkillSummary } from '../../api/types';

export type SourceFilter = '' | SkillSource;

/** The skills of one source (or all) whose slug, name or description holds the words typed. */
export function filterSkills(items: SkillSummary[], source: SourceFilter, search: string): SkillSummary[] {
  const words = search.trim().toLowerCase();
  return items.filter(
    (item) =>
      (!source || item.source === source) &&
      (!words || [item.slug, item.name, item.description].some((text) => text.toLowerCase().includes(words))),
  );
}

/** Files, dependencies and sharing change only for a managed skill that is not builtin. */
export function canEdit(skill: Pick<SkillSummary, 'permission' | 'source'>): boolean {
  return skill.permission === 'manage' && skill.source !== 'builtin';
}

/** Which delete route applies, if any: builtin skills are kept in the repository. */
export function deleteRoute(
  skill: Pick<SkillSummary, 'permission' | 'source'>,
): 'personal' | 'shared' | null {
  if (skill.source === 'personal') return 'personal';
  return canEdit(skill) ? 'shared' : null;
}

/** Enabling applies to shared and builtin skills (a personal one is always on for its owner). */
export function canToggle(skill: Pick<SkillSummary, 'permission' | 'source'>): boolean {
  return skill.permission === 'manage' && skill.source !== 'personal';
}
