import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { roleAtLeast } from '../../common/auth/user-role.js';
import { canonicalDigest } from '../../common/crypto/canonical-digest.js';
import { CommonErrors } from '../../common/errors/index.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../../database/unique-violation.js';
import { AppConfig } from '../../config/app-config.js';
import { AgentsService } from '../agents/index.js';
import { CronRule } from './cron/cron-rule.js';
import {
  OccurrenceDto,
  ScheduleDto,
  type CreateScheduleDto,
  type OccurrencePageDto,
  type ListSchedulesQueryDto,
  type ScheduleRunDto,
  type UpdateScheduleDto,
} from './dto/schedule.dto.js';
import { Clock } from './firing/clock.js';
import { OccurrenceFiring } from './firing/occurrence-firing.js';
import { ScheduleOccurrenceEntity } from './schedule-occurrence.entity.js';
import type { ScheduleEntity } from './schedule.entity.js';
import { SchedulesErrors } from './schedules.errors.js';
import { SchedulesRepository } from './schedules.repository.js';

/** Schedules as their owners (and admins) manage them over HTTP. */
@Injectable()
export class SchedulesService {
  constructor(
    private readonly schedules: SchedulesRepository,
    private readonly agents: AgentsService,
    private readonly firing: OccurrenceFiring,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async create(user: AuthenticatedUser, slug: string, input: CreateScheduleDto): Promise<ScheduleDto> {
    const enabled = input.enabled ?? true;
    const digest = canonicalDigest([slug, input.cron, input.timezone, input.input, enabled]);
    const requestId = input.request_id ?? null;
    if (requestId !== null) {
      const existing = await this.schedules.findByRequest(user.id, requestId);
      if (existing !== null) return this.replay(existing, digest, requestId);
    }
    const agent = await this.agents.findUsable(user, slug);
    if (agent === null || agent.isSubagent) throw SchedulesErrors.unknownAgent(slug);
    const rule = this.validRule(input.cron, input.timezone);
    const limit = this.config.schedules.perUser;
    let row: ScheduleEntity | null;
    try {
      row = await this.schedules.insertWithinLimit(
        {
          ownerId: user.id,
          agentId: agent.id,
          agentSlug: agent.slug,
          cron: input.cron.trim(),
          timezone: input.timezone,
          input: input.input,
          enabled,
          nextRunAt: enabled ? rule.nextAfter(this.clock.now()) : null,
          requestId,
          payloadDigest: digest,
        },
        limit,
      );
    } catch (error) {
      if (requestId === null || !isUniqueViolation(error, 'schedules_owner_request_key')) throw error;
      const existing = await this.schedules.findByRequest(user.id, requestId);
      if (existing === null) throw error;
      return this.replay(existing, digest, requestId);
    }
    if (row === null) throw SchedulesErrors.limitReached(limit);
    return ScheduleDto.from(row, null);
  }

  async list(user: AuthenticatedUser, query: ListSchedulesQueryDto): Promise<Page<ScheduleDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const filter = { ownerId: isAdmin(user) ? null : user.id, agentSlug: query.agent_slug ?? null };
    const rows = await this.schedules.listPage(filter, query.limit, after);
    const last = await this.schedules.lastOccurrences(rows.map((row) => row.id));
    return toPage(rows, query.limit, (row) => ScheduleDto.from(row, last.get(row.id) ?? null));
  }

  async get(user: AuthenticatedUser, id: string): Promise<ScheduleDto> {
    return this.dtoOf(await this.visible(user, id));
  }

  async update(user: AuthenticatedUser, id: string, input: UpdateScheduleDto): Promise<ScheduleDto> {
    const schedule = await this.visible(user, id);
    const cron = input.cron?.trim() ?? schedule.cron;
    const timezone = input.timezone ?? schedule.timezone;
    const enabled = input.enabled ?? schedule.enabled;
    const rule = this.validRule(cron, timezone);
    const timing = cron !== schedule.cron || timezone !== schedule.timezone || enabled !== schedule.enabled;
    await this.schedules.update(id, {
      cron,
      timezone,
      enabled,
      ...(input.input === undefined ? {} : { input: input.input }),
      // Re-timed from now: periods before the change are not fired late.
      ...(timing ? { nextRunAt: enabled ? rule.nextAfter(this.clock.now()) : null } : {}),
    });
    return this.get(user, id);
  }

  async remove(user: AuthenticatedUser, id: string): Promise<void> {
    await this.visible(user, id);
    if (!(await this.schedules.delete(id))) throw SchedulesErrors.notFound();
  }

  /** Run now, as the owner: one occurrence (idempotent by `request_id`), its thread and run. */
  async runNow(user: AuthenticatedUser, id: string, requestId: string | null): Promise<ScheduleRunDto> {
    const schedule = await this.owned(user, id);
    const existing = requestId === null ? null : await this.schedules.findOccurrenceByRequest(id, requestId);
    const occurrence =
      existing ??
      (await this.schedules.insertManualOccurrence(
        Object.assign(new ScheduleOccurrenceEntity(), {
          id: randomUUID(),
          scheduleId: id,
          kind: 'manual' as const,
          scheduledFor: this.clock.now(),
          status: 'pending' as const,
          reason: null,
          runId: null,
          threadId: null,
          requestId,
        }),
      ));
    // A concurrent replay waits for the first request's firing, then reads its outcome.
    const fired = occurrence.status === 'pending' ? await this.firing.fire(occurrence.id, 'wait') : null;
    if (fired?.refusal !== undefined) throw fired.refusal;
    const outcome = fired?.occurrence ?? (await this.schedules.findOccurrenceById(occurrence.id));
    if (outcome?.status === 'started' && outcome.runId !== null && outcome.threadId !== null)
      return { occurrence_id: outcome.id, run_id: outcome.runId, thread_id: outcome.threadId };
    if (outcome?.status === 'pending') throw CommonErrors.concurrentUpdate();
    throw SchedulesErrors.notStarted(
      occurrence.id,
      outcome?.status ?? 'failed',
      outcome?.reason ?? null,
      schedule.agentSlug,
    );
  }

  async occurrences(user: AuthenticatedUser, id: string, query: PageQueryDto): Promise<OccurrencePageDto> {
    await this.owned(user, id);
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.schedules.occurrencesPage(id, query.limit, after);
    return toPage(rows, query.limit, (row) => OccurrenceDto.from(row));
  }

  private async dtoOf(schedule: ScheduleEntity): Promise<ScheduleDto> {
    const last = await this.schedules.lastOccurrences([schedule.id]);
    return ScheduleDto.from(schedule, last.get(schedule.id) ?? null);
  }

  /** The caller's schedule, or any for an admin; another user's is 404, never revealed. */
  private async visible(user: AuthenticatedUser, id: string): Promise<ScheduleEntity> {
    const schedule = await this.schedules.findById(id);
    if (schedule === null || (schedule.ownerId !== user.id && !isAdmin(user)))
      throw SchedulesErrors.notFound();
    return schedule;
  }

  /** Only the owner's: running and the occurrences are the owner's business. */
  private async owned(user: AuthenticatedUser, id: string): Promise<ScheduleEntity> {
    const schedule = await this.schedules.findById(id);
    if (schedule === null || schedule.ownerId !== user.id) throw SchedulesErrors.notFound();
    return schedule;
  }

  private validRule(cron: string, timezone: string): CronRule {
    const rule = CronRule.parse(cron, timezone);
    if (!(rule instanceof CronRule))
      throw CommonErrors.validationFailed(
        rule.map((problem) => ({ field: problem.field, messages: [problem.message] })),
      );
    const now = this.clock.now();
    if (rule.nextAfter(now) === null)
      throw CommonErrors.validationFailed([{ field: 'cron', messages: ['cron never fires'] }]);
    const min = this.config.schedules.minIntervalSeconds;
    const gap = rule.shortestGapSeconds(now, min);
    if (gap !== null && gap < min)
      throw CommonErrors.validationFailed([
        {
          field: 'cron',
          messages: [`cron fires every ${gap} seconds at times; the shortest allowed is ${min}`],
        },
      ]);
    return rule;
  }

  private replay(row: ScheduleEntity, digest: string, requestId: string): Promise<ScheduleDto> {
    if (row.payloadDigest !== digest) throw CommonErrors.requestIdConflict(requestId);
    return this.dtoOf(row);
  }
}

const isAdmin = (user: AuthenticatedUser) => roleAtLeast(user.role, 'admin');
