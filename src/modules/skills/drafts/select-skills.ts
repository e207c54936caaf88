import { SkillsErrors } from '../skills.errors.js';
import type { ParsedSkill } from './parse-skill-upload.js';

/** The skills named (by slug, name or folder name); an unknown name → 422. */
export function selectedSkills(items: ParsedSkill[], names: string[]): ParsedSkill[] {
  const matches = (item: ParsedSkill, name: string) =>
    item.pkg.manifest.slug === name ||
    item.pkg.manifest.name === name ||
    item.folder.slice(item.folder.lastIndexOf('/') + 1) === name;
  const unknown = names.filter((name) => !items.some((item) => matches(item, name)));
  if (unknown.length > 0) throw SkillsErrors.unknownSkillNames('skill_names', unknown);
  return items.filter((item) => names.some((name) => matches(item, name)));
}

/** Skills that others of the same draft depend on go first, so the dependency check finds them. */
export function installOrder(items: ParsedSkill[]): ParsedSkill[] {
  const ordered: ParsedSkill[] = [];
  const visit = (item: ParsedSkill, path: Set<ParsedSkill>) => {
    if (ordered.includes(item) || path.has(item)) return;
    path.add(item);
    for (const dep of item.pkg.manifest.skill_dependencies) {
      const inDraft = items.find((other) => other.pkg.manifest.slug === dep);
      if (inDraft !== undefined) visit(inDraft, path);
    }
    ordered.push(item);
  };
  for (const item of items) visit(item, new Set());
  return ordered;
}
