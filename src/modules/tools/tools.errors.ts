import { DomainError } from '../../common/errors/domain-error.js';

export const ToolsErrors = {
  notFound: (name: string) =>
    new DomainError('not_found', 'tools.not_found', `No tool named "${name}".`, { details: { tool: name } }),
  duplicateName: (name: string) =>
    new DomainError('conflict', 'tools.duplicate_name', `A tool named "${name}" is already registered.`, {
      details: { tool: name },
    }),
  notExecutable: (name: string) =>
    new DomainError('forbidden', 'tools.not_executable', `The tool "${name}" is not available in this run.`, {
      details: { tool: name },
    }),
  notVisible: (name: string) =>
    new DomainError(
      'forbidden',
      'tools.not_visible',
      `The tool "${name}" is not open to the model in this turn (activate the skill that provides it first).`,
      { details: { tool: name } },
    ),
  forbiddenForSubagent: (name: string) =>
    new DomainError('forbidden', 'tools.forbidden_for_subagent', `Subagents may not use "${name}".`, {
      details: { tool: name },
    }),
  invalidArguments: (name: string, issues: { path: string; message: string }[]) =>
    new DomainError('invalid', 'tools.invalid_arguments', `Invalid arguments for "${name}".`, {
      details: { tool: name, issues },
    }),
  resourceUnauthorized: (name: string, kind: string) =>
    new DomainError(
      'forbidden',
      'tools.resource_unauthorized',
      `No authorization rule for a ${kind} target.`,
      {
        details: { tool: name, resource: kind },
      },
    ),
  timeout: (name: string, timeoutMs: number) =>
    new DomainError('timeout', 'tools.timeout', `The tool "${name}" did not finish within ${timeoutMs} ms.`, {
      details: { tool: name, timeout_ms: timeoutMs },
    }),
  cancelled: (name: string) =>
    new DomainError('conflict', 'tools.cancelled', `The call to "${name}" was cancelled.`, {
      details: { tool: name },
    }),
  failed: (name: string) =>
    new DomainError('internal', 'tools.failed', `The tool "${name}" failed unexpectedly.`, {
      details: { tool: name },
    }),
};

/**
 * The one kind of error that ends a run instead of becoming a tool result: the run's authorization is
 * gone (account disabled, agent access lost or the agent deleted, execution lease lost).
 */
export class RunAuthorizationRevokedError extends Error {
  constructor(
    readonly code:
      'auth.account_disabled' | 'agents.access_revoked' | 'threads.agent_deleted' | 'runs.lease_lost',
    message: string,
  ) {
    super(message);
    this.name = 'RunAuthorizationRevokedError';
  }
}

/**
 * The one lease-lost error: a fenced write of the lease holder (event, message, snapshot, tool side
 * effect, authorization re-check) found the run's lease no longer this worker's. A revocation, so it
 * ends the run for this worker wherever it is thrown, also inside a tool call; `name` stays the
 * family's.
 */
export class LeaseLostError extends RunAuthorizationRevokedError {
  constructor(readonly runId: string) {
    super('runs.lease_lost', `The run ${runId} is no longer held by this worker.`);
  }
}
