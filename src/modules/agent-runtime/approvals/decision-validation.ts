import { CommonErrors, type FieldError } from '../../../common/errors/index.js';
import { ToolSchemaCompiler, USER_DECISIONS, type UserDecisionKind } from '../../tools/index.js';
import type { Decisions } from '../questions/waiting-point.entity.js';
import type { PointApproval, SubmittedDecision } from './approval-interrupt.js';

const KEYS = new Set(['decision', 'args', 'message', 'remember']);
const REMEMBER = ['once', 'thread'] as const;

/**
 * Checks decisions against an approval point (`POST /api/runs/:id/approvals`): every call decided, no
 * unknown id; `edit` carries `args` valid for the tool's own argument schema; `message` (a rejection's
 * words for the model) only on `reject`; `remember: "thread"` only on what lets a call run. Returns
 * the decisions as stored, or throws a 400 naming each field.
 */
export function validateDecisions(approvals: PointApproval[], input: unknown, maxChars: number): Decisions {
  if (typeof input !== 'object' || input === null || Array.isArray(input))
    throw CommonErrors.validationFailed([
      { field: 'decisions', messages: ['must be an object keyed by tool_call_id'] },
    ]);
  const given = input as Record<string, unknown>;
  const problems: FieldError[] = [];
  const known = new Set(approvals.map((approval) => approval.tool_call_id));
  for (const id of Object.keys(given))
    if (!known.has(id))
      problems.push({ field: `decisions.${id}`, messages: ['no call of this point has this id'] });
  const decisions: Decisions = {};
  const compiler = new ToolSchemaCompiler();
  for (const approval of approvals) {
    const field = `decisions.${approval.tool_call_id}`;
    const raw = given[approval.tool_call_id];
    const messages: string[] = [];
    const decision = raw === undefined ? null : decisionOf(raw, approval, compiler, maxChars, messages);
    if (raw === undefined) messages.push('every call must be decided');
    if (messages.length > 0) problems.push({ field, messages });
    else if (decision !== null) decisions[approval.tool_call_id] = decision;
  }
  if (problems.length > 0) throw CommonErrors.validationFailed(problems);
  return decisions;
}

function decisionOf(
  raw: unknown,
  approval: PointApproval,
  compiler: ToolSchemaCompiler,
  maxChars: number,
  messages: string[],
): SubmittedDecision | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    messages.push('must be an object with `decision`');
    return null;
  }
  const given = raw as Record<string, unknown>;
  for (const key of Object.keys(given)) if (!KEYS.has(key)) messages.push(`unknown field "${key}"`);
  const decision = given.decision;
  if (!(USER_DECISIONS as readonly unknown[]).includes(decision)) {
    messages.push(`decision must be one of ${USER_DECISIONS.join(', ')}`);
    return null;
  }
  const kind = decision as UserDecisionKind;
  const result: SubmittedDecision = { decision: kind };
  if (kind === 'edit') {
    const args = given.args;
    if (typeof args !== 'object' || args === null || Array.isArray(args))
      messages.push('an edit carries `args`: an object');
    else {
      messages.push(...argumentIssues(compiler, approval, args));
      result.args = args as Record<string, unknown>;
    }
  } else if (given.args !== undefined) messages.push('`args` only goes with an edit');
  if (given.message !== undefined) {
    if (kind !== 'reject') messages.push('`message` only goes with a rejection');
    else if (typeof given.message !== 'string' || given.message.length > maxChars)
      messages.push(`message must be a string of at most ${maxChars} characters`);
    else if (given.message.trim() !== '') result.message = given.message.trim();
  }
  if (given.remember !== undefined) {
    if (!(REMEMBER as readonly unknown[]).includes(given.remember))
      messages.push('remember must be "once" or "thread"');
    else if (given.remember === 'thread' && kind === 'reject') messages.push('a rejection is not remembered');
    else result.remember = given.remember as SubmittedDecision['remember'];
  }
  return result;
}

/** The edited arguments checked against the tool's own schema, as the executor will check them. */
function argumentIssues(compiler: ToolSchemaCompiler, approval: PointApproval, args: object): string[] {
  const compiled = compiler.compile(approval.args_schema);
  if (!compiled.ok) return [];
  return compiled.args.check(args).map((issue) => `args.${issue.path}: ${issue.message}`);
}
