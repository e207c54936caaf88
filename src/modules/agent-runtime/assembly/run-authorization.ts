import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { UserRole } from '../../../common/auth/user-role.js';
import { AgentsService, type UsableAgent } from '../../agents/agents.service.js';
import { LeaseLostError, RunAuthorizationRevokedError } from '../../tools/tools.errors.js';
import type { RunEntity } from '../runs/run.entity.js';

export interface RunActor {
  id: string;
  role: UserRole;
  departmentId: string;
}

/** What identifies a run's user and agent: the agent by the id the thread is bound to, never by slug. */
export type RunSubject = Pick<RunEntity, 'userId' | 'agentId' | 'agentSlug'>;

/**
 * What a run may still do, re-checked from the database: the account is active, the run's agent (by
 * id) still exists and the user may still use it, and (for the lease holder) the lease is still this
 * token's. Any "no" ends the run. A database error is not a "no": it propagates as it is (before a
 * tool call it fails that call, at the start of a run the lease lapses and the run is retried).
 */
@Injectable()
export class RunAuthorization {
  constructor(
    private readonly dataSource: DataSource,
    private readonly agents: AgentsService,
  ) {}

  /** The run's user and agent as of now; throws `RunAuthorizationRevokedError` if either is gone. */
  async actorAndAgent(run: RunSubject): Promise<{ actor: RunActor; agent: UsableAgent }> {
    const [user] = await this.dataSource.query<(RunActor & { disabled: boolean })[]>(
      `SELECT id, role, department_id AS "departmentId", disabled FROM users WHERE id = $1`,
      [run.userId],
    );
    if (user === undefined || user.disabled)
      throw new RunAuthorizationRevokedError(
        'auth.account_disabled',
        'The account running this agent is disabled.',
      );
    const actor = { id: user.id, role: user.role, departmentId: user.departmentId };
    const access =
      run.agentId === null ? { kind: 'deleted' as const } : await this.agents.accessById(actor, run.agentId);
    switch (access.kind) {
      case 'usable':
        return { actor, agent: access.agent };
      case 'deleted':
        throw new RunAuthorizationRevokedError(
          'threads.agent_deleted',
          `The agent "${run.agentSlug}" of this thread was deleted.`,
        );
      case 'denied':
        throw new RunAuthorizationRevokedError(
          'agents.access_revoked',
          'The user may no longer use this agent.',
        );
    }
  }

  /** Before every tool call: account, agent access and lease, in one pass. */
  async verify(runId: string, leaseToken: string, run: RunSubject): Promise<void> {
    const [lease] = await this.dataSource.query<unknown[]>(
      `SELECT 1 FROM runs WHERE id = $1 AND lease_token = $2`,
      [runId, leaseToken],
    );
    if (lease === undefined) throw new LeaseLostError(runId);
    await this.actorAndAgent(run);
  }
}
