import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager, type SelectQueryBuilder } from 'typeorm';
import { preparedFindOneBy } from '../../database/prepared-find.js';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { scopeMemberSql } from '../../common/sharing/index.js';
import { AgentEntity } from './agent.entity.js';
import type { ShareActor } from '../../common/sharing/index.js';

export type NewAgent = Pick<
  AgentEntity,
  'slug' | 'name' | 'description' | 'isSubagent' | 'builtin' | 'ownerId' | 'shareConfig' | 'config'
>;
export type AgentChanges = Partial<Pick<AgentEntity, 'name' | 'description' | 'shareConfig' | 'config'>>;

/**
 * Who can read an agent, in SQL; `canRead` in `common/sharing/share-config.ts` is the same rule in TypeScript.
 * Superadmins read everything, admins the builtin agents, creators their own, others by read scope.
 */
function whereReadableBy<T extends AgentEntity>(
  q: SelectQueryBuilder<T>,
  actor: ShareActor,
): SelectQueryBuilder<T> {
  if (actor.role === 'superadmin') return q;
  return q.andWhere(
    `(a.owner_id = :actorId OR (a.builtin AND :actorIsAdmin) OR ${scopeMemberSql('a.share_config', 'read_scope')} OR ${scopeMemberSql('a.share_config', 'manage_scope')})`,
    { actorId: actor.id, actorDepartment: actor.departmentId, actorIsAdmin: actor.role === 'admin' },
  );
}

@Injectable()
export class AgentsRepository {
  constructor(@InjectRepository(AgentEntity) private readonly rows: Repository<AgentEntity>) {}

  findReadableBySlug(actor: ShareActor, slug: string): Promise<AgentEntity | null> {
    return whereReadableBy(
      this.rows.createQueryBuilder('a').where('a.slug = :slug', { slug }),
      actor,
    ).getOne();
  }

  /** Names of agents by id, deleted ones absent (reports name the agents their rows count). */
  async namesByIds(ids: readonly string[]): Promise<Map<string, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.rows
      .createQueryBuilder('a')
      .select(['a.id', 'a.name'])
      .where('a.id IN (:...ids)', { ids })
      .getMany();
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /**
   * By id regardless of who asks: the caller applies `canRead` (used where "gone" and "denied" differ).
   * Given a transaction's `manager`, read in it and locked FOR SHARE until it ends.
   */
  async findById(id: string, manager?: EntityManager): Promise<AgentEntity | null> {
    if (manager !== undefined)
      return manager
        .getRepository(AgentEntity)
        .findOne({ where: { id }, lock: { mode: 'pessimistic_read' } });
    // Prepared: the runtime reads its agent by id before every tool call.
    return preparedFindOneBy(this.rows, { id });
  }

  listReadablePage(
    actor: ShareActor,
    includeSubagents: boolean,
    limit: number,
    after: KeysetPosition | null,
  ): Promise<AgentEntity[]> {
    const query = whereReadableBy(this.rows.createQueryBuilder('a'), actor);
    if (!includeSubagents) query.andWhere('NOT a.is_subagent');
    return newestFirstPage(query, 'a', limit, after).getMany();
  }

  listReadableSubagents(actor: ShareActor): Promise<AgentEntity[]> {
    const query = this.rows.createQueryBuilder('a').where('a.is_subagent');
    return whereReadableBy(query, actor).orderBy('a.slug', 'ASC').getMany();
  }

  /** Slugs equal to `base` or `base-<anything>`, to pick the next free suffix. */
  async slugsLike(base: string): Promise<Set<string>> {
    const rows = await this.rows
      .createQueryBuilder('a')
      .select('a.slug', 'slug')
      .where('a.slug = :base OR a.slug LIKE :prefix', { base, prefix: `${base}-%` })
      .getRawMany<{ slug: string }>();
    return new Set(rows.map((row) => row.slug));
  }

  insert(agent: NewAgent): Promise<AgentEntity> {
    return this.rows.save(this.rows.create(agent));
  }

  /** Inserts unless the slug exists (never overwrites; safe when several processes start together). */
  async insertIfAbsent(agent: NewAgent): Promise<void> {
    await this.rows.createQueryBuilder().insert().values(agent).orIgnore().execute();
  }

  /**
   * Computes changes against the current row under a row lock, so concurrent edits merge against each
   * other instead of overwriting. Returns the updated row, or null if it disappeared.
   */
  async updateLocked(
    id: string,
    decide: (current: AgentEntity) => Promise<AgentChanges>,
  ): Promise<AgentEntity | null> {
    return this.rows.manager.transaction(async (manager: EntityManager) => {
      const agents = manager.getRepository(AgentEntity);
      const current = await agents.findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
      if (current === null) return null;
      const changes = await decide(current);
      if (Object.keys(changes).length > 0) await agents.update({ id }, changes);
      return agents.findOneBy({ id });
    });
  }

  async deleteById(id: string): Promise<void> {
    await this.rows.delete({ id });
  }
}
