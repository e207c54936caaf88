import type {
  AgentConfig,
  AgentConfigValue,
  AgentDetail,
  ApprovalPolicy,
  ConfigurableItem,
  ResourceSelection,
} from '../../api/types';
import { selectionDraft, submitted, type SelectionDraft } from './resource-selection';

/** The editor's value of one field of the form the service described (`configurable_items`). */
export type FieldDraft =
  | { type: 'text' | 'string'; value: string }
  | { type: 'integer'; value: number | null }
  | { type: 'resources'; selection: SelectionDraft }
  | { type: 'approval'; policy: ApprovalPolicy };

export type ConfigDraft = Record<string, FieldDraft>;

/** The value an agent runs with for a field: the saved one, or the form's default when none is saved. */
function savedValue(agent: AgentDetail, item: ConfigurableItem): AgentConfigValue {
  return agent.config[item.field] ?? item.default;
}

function approvalPolicy(value: AgentConfigValue, fallback: AgentConfigValue): ApprovalPolicy {
  const given = (typeof value === 'object' && !Array.isArray(value) ? value : {}) as Partial<ApprovalPolicy>;
  const defaults = fallback as ApprovalPolicy;
  return {
    default: given.default ?? defaults.default,
    rules: (given.rules ?? []).map((rule) => ({ ...rule })),
  };
}

export function fieldDraft(agent: AgentDetail, item: ConfigurableItem): FieldDraft {
  const value = savedValue(agent, item);
  switch (item.type) {
    case 'text':
    case 'string':
      return { type: item.type, value: typeof value === 'string' ? value : '' };
    case 'integer':
      return { type: 'integer', value: typeof value === 'number' ? value : null };
    case 'resources':
      return {
        type: 'resources',
        selection: selectionDraft(
          value as ResourceSelection,
          (item.options ?? []).map((option) => option.value),
        ),
      };
    case 'approval':
      return { type: 'approval', policy: approvalPolicy(value, item.default) };
  }
}

export function configDraft(agent: AgentDetail): ConfigDraft {
  return Object.fromEntries(agent.configurable_items.map((item) => [item.field, fieldDraft(agent, item)]));
}

function valueOf(draft: FieldDraft): AgentConfigValue | null {
  switch (draft.type) {
    case 'text':
    case 'string':
      return draft.value;
    case 'integer':
      return draft.value;
    case 'resources':
      return submitted(draft.selection);
    case 'approval':
      return draft.policy;
  }
}

/**
 * Only the fields the editor changed: the service merges what it is sent, and an unchanged field is
 * left alone (a shared agent keeps the selections of people who see more than this editor).
 */
export function changedConfig(agent: AgentDetail, drafts: ConfigDraft): AgentConfig {
  const changes: AgentConfig = {};
  for (const item of agent.configurable_items) {
    const draft = drafts[item.field];
    if (!draft) continue;
    const value = valueOf(draft);
    if (value === null) continue;
    const before = valueOf(fieldDraft(agent, item));
    if (JSON.stringify(value) !== JSON.stringify(before)) changes[item.field] = value;
  }
  return changes;
}
