import type { ApprovalRequest, Decision } from '../../api/types';

export type Choice = 'approve' | 'reject' | 'edit';

/** One call's decision being made in the form. */
export interface DecisionDraft {
  choice: Choice | null;
  message: string;
  argsText: string;
  rememberThread: boolean;
}

export function draftFor(request: ApprovalRequest): DecisionDraft {
  return {
    choice: null,
    message: '',
    argsText: JSON.stringify(request.args, null, 2),
    rememberThread: false,
  };
}

export type ArgsProblem =
  | { kind: 'invalid_json'; error: string }
  | { kind: 'not_object' }
  | { kind: 'missing_field'; field: string }
  | { kind: 'wrong_type'; field: string; expected: string };

/**
 * Checks edited arguments before they are sent: JSON, an object, the schema's required fields present,
 * its declared top-level types and enums respected. The server checks the whole schema again.
 */
export function checkEditedArgs(
  text: string,
  schema: Record<string, unknown> | undefined,
): { args: Record<string, unknown> } | { problem: ArgsProblem } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: { kind: 'invalid_json', error: (error as Error).message } };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { problem: { kind: 'not_object' } };
  const args = value as Record<string, unknown>;
  for (const field of (schema?.required ?? []) as string[]) {
    if (!(field in args)) return { problem: { kind: 'missing_field', field } };
  }
  const properties = (schema?.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
  for (const [field, rule] of Object.entries(properties)) {
    if (!(field in args)) continue;
    const expected = typeof rule.type === 'string' ? rule.type : null;
    if (expected && !hasType(args[field], expected))
      return { problem: { kind: 'wrong_type', field, expected } };
    if (Array.isArray(rule.enum) && !rule.enum.some((option) => option === args[field])) {
      return {
        problem: { kind: 'wrong_type', field, expected: rule.enum.map((v) => JSON.stringify(v)).join(' | ') },
      };
    }
  }
  return { args };
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return !!value && typeof value === 'object' && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}

/** The `decisions` body, or the id of the first call whose decision is missing or invalid. */
export function buildDecisions(
  requests: readonly ApprovalRequest[],
  drafts: Record<string, DecisionDraft>,
): { decisions: Record<string, Decision> } | { invalid: string } {
  const decisions: Record<string, Decision> = {};
  for (const request of requests) {
    const draft = drafts[request.tool_call_id];
    if (!draft?.choice) return { invalid: request.tool_call_id };
    const remember = draft.rememberThread ? ({ remember: 'thread' } as const) : {};
    if (draft.choice === 'approve') decisions[request.tool_call_id] = { decision: 'approve', ...remember };
    else if (draft.choice === 'reject') {
      const message = draft.message.trim();
      decisions[request.tool_call_id] = { decision: 'reject', ...(message ? { message } : {}) };
    } else {
      const checked = checkEditedArgs(draft.argsText, request.args_schema);
      if ('problem' in checked) return { invalid: request.tool_call_id };
      decisions[request.tool_call_id] = { decision: 'edit', args: checked.args, ...remember };
    }
  }
  return { decisions };
}
