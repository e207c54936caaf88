import type { EntityManager } from 'typeorm';
import type { UserRole } from '../../../common/auth/user-role.js';
import { canRead, type ShareConfig } from '../../agents/sharing/share-config.js';
import type { ToolExecutionContext } from '../../tools/execution/tool-execution-context.js';
import { LeaseLostError, RunAuthorizationRevokedError } from '../../tools/tools.errors.js';
import { ImprovementMarksErrors } from '../improvement-marks.errors.js';

/** What a write may rely on once the checks passed: the run as stored. */
export interface HeldRun {
  agentId: string | null;
  agentSlug: string;
  userId: string;
  threadId: string;
}

/**
 * Re-checks, inside the caller's transaction, that the run may still write: this worker holds the
 * run's lease (`runs.lease_lost` otherwise), the account is active (`auth.account_disabled`) and the
 * user may still use the run's agent, by id (`agents.access_revoked`, or `threads.agent_deleted` once it is
 * gone). The rows read are locked FOR SHARE, so
 * none of these can change until the transaction ends. A revocation ends the run, not just the call.
 *
 * The agent rule is `canRead` from the agents module, the same rule `AgentsService.findUsable` applies
 * in SQL; reading the row here keeps the whole check in this one transaction and connection.
 */
export async function checkRunMayWrite(
  manager: EntityManager,
  context: ToolExecutionContext,
): Promise<HeldRun> {
  const [run] = await manager.query<HeldRun[]>(
    `SELECT agent_id AS "agentId", agent_slug AS "agentSlug", user_id AS "userId", thread_id AS "threadId"
       FROM runs WHERE id = $1 AND lease_token = $2 FOR SHARE`,
    [context.runId, context.leaseToken],
  );
  if (run === undefined) throw new LeaseLostError(context.runId);
  if (run.userId !== context.user.id || run.threadId !== context.threadId)
    throw ImprovementMarksErrors.runMismatch();

  const [user] = await manager.query<
    { id: string; role: UserRole; departmentId: string; disabled: boolean }[]
  >(`SELECT id, role, department_id AS "departmentId", disabled FROM users WHERE id = $1 FOR SHARE`, [
    context.user.id,
  ]);
  if (user === undefined || user.disabled)
    throw new RunAuthorizationRevokedError(
      'auth.account_disabled',
      'The account running this agent is disabled.',
    );

  const [agent] = await manager.query<
    { ownerId: string | null; builtin: boolean; shareConfig: ShareConfig }[]
  >(
    `SELECT owner_id AS "ownerId", builtin, share_config AS "shareConfig" FROM agents WHERE id = $1 FOR SHARE`,
    [run.agentId],
  );
  const actor = { id: user.id, role: user.role, departmentId: user.departmentId };
  // By id: another agent that took the slug of a deleted one is not the run's agent.
  if (agent === undefined)
    throw new RunAuthorizationRevokedError(
      'threads.agent_deleted',
      `The agent "${run.agentSlug}" of this thread was deleted.`,
    );
  if (!canRead(actor, agent))
    throw new RunAuthorizationRevokedError('agents.access_revoked', 'The user may no longer use this agent.');
  return run;
}
