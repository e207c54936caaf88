/**
 * The base tools: in every normal agent graph whatever the tool selection, model or skills.
 * Registration, authorization and gating all read this one set.
 */
export const BASE_TOOL_NAMES: ReadonlySet<string> = new Set(['ask_user_question', 'mark_for_improvement']);

/** Never executable in a subagent run, whatever a tool's own metadata says. */
export const SUBAGENT_FORBIDDEN_TOOL_NAMES: ReadonlySet<string> = new Set([
  'present_artifacts',
  'ask_user_question',
  'install_skill',
  'subagent_start',
  'subagent_status',
  'subagent_await',
  'subagent_cancel',
]);

/**
 * The subagent tools: mounted by the runtime for an agent that may call subagents (never selected
 * through the `tools` field, so not offered as selectable builtin tools).
 */
export const SUBAGENT_TOOL_NAMES: ReadonlySet<string> = new Set([
  'subagent_start',
  'subagent_status',
  'subagent_await',
  'subagent_cancel',
]);
