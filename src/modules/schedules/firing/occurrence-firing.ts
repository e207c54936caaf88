import { Injectable, Logger } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { DomainError } from '../../../common/errors/index.js';
import { RunStarter } from '../../agent-runtime/index.js';
import { AgentsService } from '../../agents/index.js';
import { ThreadsService } from '../../threads/index.js';
import { UserAccounts } from '../../users/index.js';
import { ScheduleOccurrenceEntity, type OccurrenceReason } from '../schedule-occurrence.entity.js';
import { ScheduleEntity } from '../schedule.entity.js';
import { inFireSpan } from './fire-span.js';
import { threadTitleOf } from './thread-title.js';

/** What firing an occurrence came to; `refusal` is the run creation's error when it refused. */
export interface FiringOutcome {
  occurrence: ScheduleOccurrenceEntity;
  refusal?: DomainError;
}

/** A refusal of the request itself, not an outage (those leave the occurrence pending, to be fired again). */
function isRefusal(error: unknown): error is DomainError {
  return error instanceof DomainError && !['unavailable', 'timeout', 'internal'].includes(error.kind);
}

/** Started runs of a schedule looked at for one still active. */
const RECENT_RUNS = 20;

/**
 * Fires one occurrence: decides whether it may start, then makes its thread and run exactly as a user
 * would (`ThreadsService.create`, then `RunStarter`, the path of `POST /api/threads/:id/runs`), as the
 * owner with the permissions they have now. The occurrence row is locked while it fires, so two workers
 * never fire it at once; the thread and the run carry request ids derived from the occurrence, so a
 * retried fire (its worker died before recording the outcome) finds them instead of making new ones.
 */
@Injectable()
export class OccurrenceFiring {
  private readonly logger = new Logger(OccurrenceFiring.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: UserAccounts,
    private readonly agents: AgentsService,
    private readonly threads: ThreadsService,
    private readonly starter: RunStarter,
  ) {}

  /**
   * Null when the occurrence is no longer pending, or (`skip`) when another worker is firing it right
   * now; with `wait`, that firing is waited for instead (and null follows, it being no longer pending).
   */
  fire(occurrenceId: string, locked: 'skip' | 'wait' = 'skip'): Promise<FiringOutcome | null> {
    return this.dataSource.transaction(async (manager) => {
      const query = manager
        .getRepository(ScheduleOccurrenceEntity)
        .createQueryBuilder('o')
        .where(`o.id = :occurrenceId AND o.status = 'pending'`, { occurrenceId })
        .setLock('pessimistic_write');
      const occurrence = await (locked === 'skip' ? query.setOnLocked('skip_locked') : query).getOne();
      if (occurrence === null) return null;
      const schedule = await manager
        .getRepository(ScheduleEntity)
        .findOneByOrFail({ id: occurrence.scheduleId });
      const outcome = await inFireSpan(schedule, occurrence, () =>
        this.decide(manager, schedule, occurrence),
      );
      const recorded = manager.getRepository(ScheduleOccurrenceEntity).merge(occurrence, outcome.changes);
      await manager.getRepository(ScheduleOccurrenceEntity).save(recorded);
      return { occurrence: recorded, ...(outcome.refusal === undefined ? {} : { refusal: outcome.refusal }) };
    });
  }

  private async decide(
    manager: EntityManager,
    schedule: ScheduleEntity,
    occurrence: ScheduleOccurrenceEntity,
  ): Promise<{ changes: Partial<ScheduleOccurrenceEntity>; refusal?: DomainError }> {
    const skipped = (reason: OccurrenceReason) => ({ changes: { status: 'skipped' as const, reason } });
    const account = await this.accounts.findById(schedule.ownerId);
    if (account === null || account.disabled) {
      await manager.update(ScheduleEntity, { id: schedule.id }, { enabled: false, nextRunAt: null });
      return skipped('owner_disabled');
    }
    const owner: AuthenticatedUser = {
      id: account.id,
      username: account.username,
      role: account.role,
      departmentId: account.departmentId,
      via: 'jwt',
    };
    const agent = await this.agents.findUsable(owner, schedule.agentSlug);
    if (agent === null || agent.isSubagent || agent.id !== schedule.agentId)
      return skipped('agent_unavailable');
    if (occurrence.kind === 'scheduled' && (await this.previousUnfinished(manager, occurrence)))
      return skipped('previous_unfinished');
    const requestId = `schedule:${occurrence.id}`;
    let threadId: string;
    try {
      threadId = (
        await this.threads.create(owner, {
          agent_slug: schedule.agentSlug,
          title: threadTitleOf(schedule, occurrence.scheduledFor),
          request_id: requestId,
        })
      ).id;
    } catch (error) {
      // Access lost between the check and the thread.
      if (isRefusal(error)) return skipped('agent_unavailable');
      throw error;
    }
    try {
      const { run } = await this.starter.start(owner, threadId, {
        input: schedule.input,
        queuePolicy: 'enqueue',
        model: null,
        requestId,
      });
      return { changes: { status: 'started', reason: null, runId: run.id, threadId } };
    } catch (error) {
      if (!isRefusal(error)) throw error;
      this.logger.warn(
        { schedule_id: schedule.id, occurrence_id: occurrence.id, code: error.code },
        'scheduled run refused',
      );
      return { changes: { status: 'failed', reason: 'run_refused', threadId }, refusal: error };
    }
  }

  /** Whether a run started by an earlier occurrence of the same schedule is still active. */
  private async previousUnfinished(
    manager: EntityManager,
    occurrence: ScheduleOccurrenceEntity,
  ): Promise<boolean> {
    const rows = await manager.query<{ run_id: string }[]>(
      `SELECT run_id FROM schedule_occurrences
        WHERE schedule_id = $1 AND id <> $2 AND run_id IS NOT NULL
        ORDER BY created_at DESC LIMIT $3`,
      [occurrence.scheduleId, occurrence.id, RECENT_RUNS],
    );
    return this.starter.anyActive(rows.map((row) => row.run_id));
  }
}
