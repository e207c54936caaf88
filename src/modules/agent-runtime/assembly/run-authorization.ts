import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { UserRole } from '../../../common/auth/user-role.js';
import { AgentsService, type UsableAgent } from '../../agents/agents.service.js';
import { RunAuthorizationRevokedError } from '../../tools/tools.errors.js';

export interface RunActor {
  id: string;
  role: UserRole;
  departmentId: string;
}

/**
 * What a run may still do, re-checked from the database: the account is active, the user may still use
 * the agent, and (for the lease holder) the lease is still this token's. Any "no" ends the run.
 */
@Injectable()
export class RunAuthorization {
  constructor(
    private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
  ) {}

  /** The run's user and agent as of now; throws `RunAuthorizationRevokedError` if either is gone. */
  async actorAndAgent(userId: string, agentSlug: string): Promise<{ actor: RunActor; agent: UsableAgent }> {
    const [user] = await this.dataSource.query<(RunActor & { disabled: boolean })[]>(
      `SELECT id, role, department_id AS "departmentId", disabled FROM users WHERE id = $1`,
      [userId],
    );
    if (user === undefined || user.disabled)
      throw new RunAuthorizationRevokedError(
        'auth.account_disabled',
        'The account running this agent is disabled.',
      );
    const actor = { id: user.id, role: user.role, departmentId: user.departmentId };
    const agent = await this.agents.findUsable(actor, agentSlug).catch(() => null);
    if (agent === null)
      throw new RunAuthorizationRevokedError(
        'agents.access_revoked',
        'The user may no longer use this agent.',
      );
    return { actor, agent };
  }

  /** Before every tool call: account, agent access and lease, in one pass. */
  async verify(runId: string, leaseToken: string, userId: string, agentSlug: string): Promise<void> {
    const [lease] = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM runs WHERE id = $1 AND lease_token = $2`,
      [runId, leaseToken],
    );
    if (lease === undefined)
      throw new RunAuthorizationRevokedError('runs.lease_lost', 'The run is no longer held by this worker.');
    await this.actorAndAgent(userId, agentSlug);
  }
}
