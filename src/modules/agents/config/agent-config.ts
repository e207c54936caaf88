import type { z } from 'zod';
import type { approvalPolicySchema } from '../../tools/index.js';

/**
 * The saved configuration of an agent. Keys are the protocol field names shared with clients (and
 * stored as such in the `config` jsonb column), so they stay snake_case.
 */
export const ALL = 'all';

/** `"all"` (every resource the running user may use, including later ones) or a fixed list of ids. */
export type ResourceSelection = typeof ALL | string[];

export const RESOURCE_FIELDS = [
  'tools',
  'knowledges',
  'skills',
  'subagents',
  'mcps',
  'preload_skills',
] as const;
export type ResourceField = (typeof RESOURCE_FIELDS)[number];

export const SCALAR_FIELDS = ['system_prompt', 'model', 'max_execution_steps'] as const;
export type ScalarField = (typeof SCALAR_FIELDS)[number];

export const APPROVAL_FIELD = 'approval';

export type ConfigField = ScalarField | ResourceField | typeof APPROVAL_FIELD;

/**
 * `config.approval` as submitted and stored: `default` and `rules` may be missing. The runtime reads it
 * parsed with `approvalPolicySchema` (`AgentApprovalPolicies`), which fills them in.
 */
export type ApprovalPolicyInput = z.input<typeof approvalPolicySchema>;

export interface AgentConfig {
  system_prompt: string;
  model: string;
  max_execution_steps: number;
  tools: ResourceSelection;
  knowledges: ResourceSelection;
  skills: ResourceSelection;
  subagents: ResourceSelection;
  mcps: ResourceSelection;
  preload_skills: ResourceSelection;
  /** Absent: the default policy. Not among the defaults of a new agent, so none is stored unasked. */
  approval?: ApprovalPolicyInput;
}

/** What a client may submit: any subset of the fields (validated by `AgentConfigDto`). */
export type AgentConfigInput = Partial<AgentConfig>;

export const MAX_EXECUTION_STEPS_LIMIT = 500;
export const DEFAULT_MAX_EXECUTION_STEPS = 100;
export const GENERAL_PURPOSE_SLUG = 'general-purpose';

/** Defaults for a new agent: tools, KBs, skills all; subagents general-purpose. */
export function defaultAgentConfig(defaultModel: string): AgentConfig {
  return {
    system_prompt: '',
    model: defaultModel,
    max_execution_steps: DEFAULT_MAX_EXECUTION_STEPS,
    tools: ALL,
    knowledges: ALL,
    skills: ALL,
    subagents: [GENERAL_PURPOSE_SLUG],
    mcps: [],
    preload_skills: [],
  };
}

export function isResourceField(field: string): field is ResourceField {
  return (RESOURCE_FIELDS as readonly string[]).includes(field);
}
