import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { preparedQueryIn } from '../../../database/prepared-query.js';
import { AgentsErrorCode, AgentsService, type UsableAgent } from '../../agents/index.js';
import { AuthErrorCode } from '../../../common/auth/auth.errors.js';
import { ThreadsErrorCode } from '../../threads/index.js';
import { RunAuthorizationRevokedError } from '../../tools/index.js';
import { UserAccounts, type ActiveActor } from '../../users/index.js';
import type { RunEntity } from '../runs/run.entity.js';
import { LeaseLostError } from '../runs/runs.errors.js';
import { ACTIVE_STATUSES } from '../runs/run-status.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type RunActor = ActiveActor;

/** What identifies a run's user and agent: the agent by the id the thread is bound to, never by slug. */
export type RunSubject = Pick<RunEntity, 'userId' | 'agentId' | 'agentSlug'>;

/** What a write may rely on once `holdLeaseIn` passed: the run as stored. */
export type HeldRun = Pick<RunEntity, 'agentId' | 'agentSlug' | 'userId' | 'threadId'>;

/**
 * "May this run still act?", the one answer every tool that writes relies on: the account is active
 * (users module), the run's agent (by id) still exists and the user may still use it (agents module),
 * and (for the lease holder) the lease is still this token's. Any "no" ends the run. A database error is
 * not a "no": it propagates as it is (before a tool call it fails that call, at the start of a run the
 * lease lapses and the run is retried).
 *
 * Two variants: `verify` before each tool call (the runtime hands it to the execution boundary), and
 * `holdLeaseIn` + `actorAndAgent(run, manager)` inside a writing tool's own transaction, where every
 * row read is locked FOR SHARE, so none of the answers can change until the write commits.
 */
@Injectable()
export class RunAuthorization {
  constructor(
    private readonly dataSource: DataSource,
    private readonly users: UserAccounts,
    private readonly agents: AgentsService,
  ) {}

  /**
   * The run's user and agent as of now; throws `RunAuthorizationRevokedError` if either is gone. Given a
   * transaction's `manager`, both rows are read in it and locked FOR SHARE.
   */
  async actorAndAgent(
    run: RunSubject,
    manager?: EntityManager,
  ): Promise<{ actor: RunActor; agent: UsableAgent }> {
    // Both rows are read at the same time (in a transaction, one after the other on its connection).
    const [actor, judge] = await Promise.all([
      this.users.activeActor(run.userId, manager),
      run.agentId === null ? null : this.agents.accessJudgeById(run.agentId, manager),
    ]);
    if (actor === null)
      throw new RunAuthorizationRevokedError(
        AuthErrorCode.ACCOUNT_DISABLED,
        'The account running this agent is disabled.',
      );
    const access = judge === null ? { kind: 'deleted' as const } : judge(actor);
    switch (access.kind) {
      case 'usable':
        return { actor, agent: access.agent };
      case 'deleted':
        throw new RunAuthorizationRevokedError(
          ThreadsErrorCode.AGENT_DELETED,
          `The agent "${run.agentSlug}" of this thread was deleted.`,
        );
      case 'denied':
        throw new RunAuthorizationRevokedError(
          AgentsErrorCode.ACCESS_REVOKED,
          'The user may no longer use this agent.',
        );
    }
  }

  /**
   * Before every tool call: account, agent access and lease, in one pass. The lease, the account and the
   * agent are read at the same time (one round trip per tool call); a lost lease is still the answer first.
   */
  async verify(runId: string, leaseToken: string, run: RunSubject): Promise<void> {
    const [lease, subject] = await Promise.allSettled([
      preparedQueryIn(this.dataSource.manager, `SELECT 1 FROM runs WHERE id = $1 AND lease_token = $2`, [
        runId,
        leaseToken,
      ]),
      this.actorAndAgent(run),
    ]);
    if (lease.status === 'rejected') throw lease.reason;
    if (lease.value.length === 0) throw new LeaseLostError(runId);
    if (subject.status === 'rejected') throw subject.reason;
  }

  /**
   * Whether `userId`'s run `runId` is still under way (queued, running, waiting or cancel_requested):
   * what a credential delegated to one run (the knowledge MCP token) is worth after the run ended.
   */
  async isActiveFor(runId: string, userId: string): Promise<boolean> {
    if (!UUID.test(runId)) return false;
    const rows = await preparedQueryIn(
      this.dataSource.manager,
      `SELECT 1 FROM runs WHERE id = $1 AND user_id = $2 AND status = ANY($3)`,
      [runId, userId, ACTIVE_STATUSES],
    );
    return rows.length > 0;
  }

  /**
   * Inside the caller's transaction: the run as stored if this lease token still holds it, its row
   * locked FOR SHARE (the lease cannot move until the transaction ends); `runs.lease_lost` otherwise.
   */
  async holdLeaseIn(manager: EntityManager, runId: string, leaseToken: string): Promise<HeldRun> {
    const [run] = await manager.query<HeldRun[]>(
      `SELECT agent_id AS "agentId", agent_slug AS "agentSlug", user_id AS "userId", thread_id AS "threadId"
         FROM runs WHERE id = $1 AND lease_token = $2 FOR SHARE`,
      [runId, leaseToken],
    );
    if (run === undefined) throw new LeaseLostError(runId);
    return run;
  }
}
