import type { RunSkill } from './run-skills.js';

/**
 * What a run executes with: the agent's saved selection intersected with what the running user may use
 * (step 1 of assembly, `docs/architecture.md` "A run's life"), frozen on the run when it is first
 * claimed so a resumed run behaves the same. Lists are concrete ids (`"all"` is expanded).
 */
export interface RunConfigSnapshot {
  agent: { id: string; slug: string; name: string; is_subagent: boolean };
  system_prompt: string;
  model: string;
  max_execution_steps: number;
  tools: string[];
  knowledges: string[];
  skills: string[];
  subagents: string[];
  mcps: string[];
  preload_skills: string[];
  /** Effective skills with their revisions (absent on snapshots taken before skills were resolved). */
  effective_skills?: RunSkill[];
  /** The callable subagents (`subagents`) as the system prompt lists them; absent in older snapshots. */
  subagent_profiles?: SubagentProfile[];
}

export interface SubagentProfile {
  slug: string;
  name: string;
  description: string;
}
