import { Injectable } from '@nestjs/common';
import type { RunActor } from './run-authorization.js';

/** One skill a run may use, as frozen in its config snapshot. */
export interface RunSkill {
  slug: string;
  name: string;
  description: string;
  /** The SKILL.md path the agent reads (`/home/gem/skills/<slug>/SKILL.md`, or the personal one). */
  path: string;
  source: 'builtin' | 'shared' | 'personal';
  /** The shared index revision, or a content stamp for a personal skill. */
  revision: string;
  tool_dependencies: string[];
  mcp_dependencies: string[];
}

export interface ResolvedRunSkills {
  /** Effective skills: the readable selection, the personal skills, the dependency closure, in order. */
  skills: RunSkill[];
  /** Preloaded skills (selected, readable shared ones) with their full SKILL.md. */
  preloaded: { slug: string; content: string }[];
}

/** What the Skills module answers at step 1 of assembly. */
export interface RunSkillResolver {
  resolveForRun(actor: RunActor, selection: string[], preload: string[]): Promise<ResolvedRunSkills>;
}

/** Where the Skills module connects its resolver; without one a run has no skills. */
@Injectable()
export class RunSkills {
  private resolver: RunSkillResolver | null = null;

  connect(resolver: RunSkillResolver): void {
    this.resolver = resolver;
  }

  resolve(actor: RunActor, selection: string[], preload: string[]): Promise<ResolvedRunSkills> {
    if (this.resolver === null) return Promise.resolve({ skills: [], preloaded: [] });
    return this.resolver.resolveForRun(actor, selection, preload);
  }
}

/** The system prompt section listing the effective skills, then the preloaded SKILL.md files in full. */
export function skillsPromptSection(resolved: ResolvedRunSkills): string {
  if (resolved.skills.length === 0) return '';
  const lines = [
    '## Skills',
    "Read a skill's SKILL.md with read_file before using it; its tools become available once read.",
    ...resolved.skills.map(
      (skill) => `- ${skill.name} (${skill.slug}): ${skill.description} — ${skill.path}`,
    ),
  ];
  for (const { slug, content } of resolved.preloaded) {
    lines.push('', `### Preloaded skill: ${slug}`, content.trimEnd());
  }
  return lines.join('\n');
}
