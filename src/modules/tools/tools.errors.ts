import { DomainError, type ErrorCode, declareErrorCodes } from '../../common/errors/index.js';

export const ToolsErrorCode = {
  NOT_FOUND: 'tools.not_found',
  DUPLICATE_NAME: 'tools.duplicate_name',
  NOT_EXECUTABLE: 'tools.not_executable',
  NOT_VISIBLE: 'tools.not_visible',
  FORBIDDEN_FOR_SUBAGENT: 'tools.forbidden_for_subagent',
  INVALID_ARGUMENTS: 'tools.invalid_arguments',
  RESOURCE_UNAUTHORIZED: 'tools.resource_unauthorized',
  TIMEOUT: 'tools.timeout',
  CANCELLED: 'tools.cancelled',
  FAILED: 'tools.failed',
  NAME_CONFLICT: 'tools.name_conflict',
  DENIED_BY_POLICY: 'tools.denied_by_policy',
  REJECTED_BY_USER: 'tools.rejected_by_user',
  APPROVAL_REQUIRED: 'tools.approval_required',
  EXECUTION_INTERRUPTED: 'tools.execution_interrupted',
} as const;
export type ToolsErrorCode = (typeof ToolsErrorCode)[keyof typeof ToolsErrorCode];
declareErrorCodes(ToolsErrorCode);

export const ToolsErrors = {
  notFound: (name: string) =>
    new DomainError('not_found', ToolsErrorCode.NOT_FOUND, `No tool named "${name}".`, {
      details: { tool: name },
    }),
  duplicateName: (name: string) =>
    new DomainError(
      'conflict',
      ToolsErrorCode.DUPLICATE_NAME,
      `A tool named "${name}" is already registered.`,
      {
        details: { tool: name },
      },
    ),
  notExecutable: (name: string) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.NOT_EXECUTABLE,
      `The tool "${name}" is not available in this run.`,
      {
        details: { tool: name },
      },
    ),
  notVisible: (name: string) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.NOT_VISIBLE,
      `The tool "${name}" is not open to the model in this turn (activate the skill that provides it first).`,
      { details: { tool: name } },
    ),
  forbiddenForSubagent: (name: string) =>
    new DomainError('forbidden', ToolsErrorCode.FORBIDDEN_FOR_SUBAGENT, `Subagents may not use "${name}".`, {
      details: { tool: name },
    }),
  invalidArguments: (name: string, issues: { path: string; message: string }[]) =>
    new DomainError('invalid', ToolsErrorCode.INVALID_ARGUMENTS, `Invalid arguments for "${name}".`, {
      details: { tool: name, issues },
    }),
  resourceUnauthorized: (name: string, kind: string) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.RESOURCE_UNAUTHORIZED,
      `No authorization rule for a ${kind} target.`,
      {
        details: { tool: name, resource: kind },
      },
    ),
  timeout: (name: string, timeoutMs: number) =>
    new DomainError(
      'timeout',
      ToolsErrorCode.TIMEOUT,
      `The tool "${name}" did not finish within ${timeoutMs} ms.`,
      {
        details: { tool: name, timeout_ms: timeoutMs },
      },
    ),
  cancelled: (name: string) =>
    new DomainError('conflict', ToolsErrorCode.CANCELLED, `The call to "${name}" was cancelled.`, {
      details: { tool: name },
    }),
  failed: (name: string) =>
    new DomainError('internal', ToolsErrorCode.FAILED, `The tool "${name}" failed unexpectedly.`, {
      details: { tool: name },
    }),
  deniedByPolicy: (name: string, decidedBy: string) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.DENIED_BY_POLICY,
      `The agent's approval policy does not allow "${name}".`,
      { details: { tool: name, decided_by: decidedBy } },
    ),
  rejectedByUser: (name: string, message: string | undefined) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.REJECTED_BY_USER,
      message === undefined || message === '' ? `The user rejected the call to "${name}".` : message,
      { details: { tool: name } },
    ),
  /** An `ask` call reached execution without a decision (never asked, or asked under another policy). */
  approvalRequired: (name: string) =>
    new DomainError(
      'forbidden',
      ToolsErrorCode.APPROVAL_REQUIRED,
      `The call to "${name}" needs the user's approval, which it does not have.`,
      { details: { tool: name } },
    ),
  /** An approved call started but its worker stopped before its result was stored: not run again. */
  executionInterrupted: (name: string) =>
    new DomainError(
      'unavailable',
      ToolsErrorCode.EXECUTION_INTERRUPTED,
      `The approved call to "${name}" started, but the service stopped before its result was recorded. ` +
        'It was not run again: its effect is unknown; check before retrying.',
      { details: { tool: name } },
    ),
  /** Two sources of one run offer the same tool name: the run fails (see `ToolAssembler`). */
  nameConflict: (name: string, sources: [string, string]) =>
    new DomainError(
      'conflict',
      ToolsErrorCode.NAME_CONFLICT,
      `Two tool sources offer a tool named "${name}": ${sources[0]} and ${sources[1]}.`,
      { details: { tool: name, sources } },
    ),
};

/**
 * The one kind of error that ends a run instead of becoming a tool result: the run's authorization is
 * gone (account disabled, agent access lost or the agent deleted, execution lease lost).
 */
export class RunAuthorizationRevokedError extends Error {
  constructor(
    /** The revocation's code: `auth.account_disabled`, `agents.access_revoked`, `threads.agent_deleted`, `runs.lease_lost`. */
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'RunAuthorizationRevokedError';
  }
}
