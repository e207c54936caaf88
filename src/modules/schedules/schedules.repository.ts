import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type Repository } from 'typeorm';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { ScheduleOccurrenceEntity } from './schedule-occurrence.entity.js';
import { ScheduleEntity } from './schedule.entity.js';

export type NewSchedule = Omit<ScheduleEntity, 'id' | 'createdAt' | 'updatedAt'>;
export type ScheduleChanges = Partial<
  Pick<ScheduleEntity, 'cron' | 'timezone' | 'input' | 'enabled' | 'nextRunAt'>
>;

/** The `schedules` and `schedule_occurrences` rows, as the HTTP side reads and writes them. */
@Injectable()
export class SchedulesRepository {
  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(ScheduleEntity) private readonly rows: Repository<ScheduleEntity>,
    @InjectRepository(ScheduleOccurrenceEntity)
    private readonly occurrences: Repository<ScheduleOccurrenceEntity>,
  ) {}

  findById(id: string): Promise<ScheduleEntity | null> {
    return this.rows.findOneBy({ id });
  }

  findByRequest(ownerId: string, requestId: string): Promise<ScheduleEntity | null> {
    return this.rows.findOneBy({ ownerId, requestId });
  }

  /**
   * Inserts the schedule unless the owner already has `limit`: the owner's schedules are counted under a
   * per-owner lock, so two creations cannot both take the last place. Null when the limit is reached.
   */
  insertWithinLimit(schedule: NewSchedule, limit: number): Promise<ScheduleEntity | null> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [
        `schedules:owner:${schedule.ownerId}`,
      ]);
      const owned = await manager.getRepository(ScheduleEntity).countBy({ ownerId: schedule.ownerId });
      if (owned >= limit) return null;
      return manager
        .getRepository(ScheduleEntity)
        .save(manager.getRepository(ScheduleEntity).create(schedule));
    });
  }

  /** Newest first; `ownerId` null lists every owner's (an admin's view). */
  /** A page of schedules, of one owner and of one agent when given. */
  listPage(
    filter: { ownerId: string | null; agentSlug: string | null },
    limit: number,
    after: KeysetPosition | null,
  ): Promise<ScheduleEntity[]> {
    const query = this.rows.createQueryBuilder('s');
    if (filter.ownerId !== null) query.andWhere('s.owner_id = :ownerId', { ownerId: filter.ownerId });
    if (filter.agentSlug !== null)
      query.andWhere('s.agent_slug = :agentSlug', { agentSlug: filter.agentSlug });
    return newestFirstPage(query, 's', limit, after).getMany();
  }

  async update(id: string, changes: ScheduleChanges): Promise<void> {
    await this.rows.update({ id }, changes);
  }

  /** Every schedule of the owner stops: disabled, no next period. */
  async disableAllOf(ownerId: string): Promise<void> {
    await this.rows.update({ ownerId, enabled: true }, { enabled: false, nextRunAt: null });
  }

  async delete(id: string): Promise<boolean> {
    return ((await this.rows.delete({ id })).affected ?? 0) > 0;
  }

  /** The newest occurrence that has an outcome, per schedule. */
  async lastOccurrences(scheduleIds: string[]): Promise<Map<string, ScheduleOccurrenceEntity>> {
    if (scheduleIds.length === 0) return new Map();
    const rows = await this.occurrences
      .createQueryBuilder('o')
      .distinctOn(['o.schedule_id'])
      .where('o.schedule_id IN (:...scheduleIds)', { scheduleIds })
      .andWhere(`o.status <> 'pending'`)
      .orderBy('o.schedule_id')
      .addOrderBy('o.created_at', 'DESC')
      .addOrderBy('o.id', 'DESC')
      .getMany();
    return new Map(rows.map((row) => [row.scheduleId, row]));
  }

  occurrencesPage(
    scheduleId: string,
    limit: number,
    after: KeysetPosition | null,
  ): Promise<ScheduleOccurrenceEntity[]> {
    const query = this.occurrences
      .createQueryBuilder('o')
      .where('o.schedule_id = :scheduleId', { scheduleId })
      .andWhere(`o.status <> 'pending'`);
    return newestFirstPage(query, 'o', limit, after).getMany();
  }

  findOccurrenceById(id: string): Promise<ScheduleOccurrenceEntity | null> {
    return this.occurrences.findOneBy({ id });
  }

  findOccurrenceByRequest(scheduleId: string, requestId: string): Promise<ScheduleOccurrenceEntity | null> {
    return this.occurrences.findOneBy({ scheduleId, requestId });
  }

  /** Inserts the occurrence unless one with its request id exists; returns the one that holds the key. */
  async insertManualOccurrence(
    row: ScheduleOccurrenceEntity,
    manager?: EntityManager,
  ): Promise<ScheduleOccurrenceEntity> {
    const repository = manager?.getRepository(ScheduleOccurrenceEntity) ?? this.occurrences;
    await repository.createQueryBuilder().insert().values(row).orIgnore().execute();
    return row.requestId === null
      ? repository.findOneByOrFail({ id: row.id })
      : repository.findOneByOrFail({ scheduleId: row.scheduleId, requestId: row.requestId });
  }
}
