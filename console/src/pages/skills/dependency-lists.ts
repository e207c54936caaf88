import type { SkillDependencies } from '../../api/types';

export const DEPENDENCY_KINDS = ['tool_dependencies', 'mcp_dependencies', 'skill_dependencies'] as const;
export type DependencyKind = (typeof DEPENDENCY_KINDS)[number];

/** The three lists as the text boxes show them: one name a line. */
export function dependencyTexts(deps: SkillDependencies): Record<DependencyKind, string> {
  return {
    tool_dependencies: deps.tool_dependencies.join('\n'),
    mcp_dependencies: deps.mcp_dependencies.join('\n'),
    skill_dependencies: deps.skill_dependencies.join('\n'),
  };
}

/** The text boxes back as the three lists the service takes (all three, always: the PUT needs them). */
export function dependenciesOf(texts: Record<DependencyKind, string>): SkillDependencies {
  return {
    tool_dependencies: names(texts.tool_dependencies),
    mcp_dependencies: names(texts.mcp_dependencies),
    skill_dependencies: names(texts.skill_dependencies),
  };
}

export function names(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    ),
  ];
}

export function sameDependencies(a: SkillDependencies, b: SkillDependencies): boolean {
  return DEPENDENCY_KINDS.every((kind) => a[kind].join('\n') === b[kind].join('\n'));
}
