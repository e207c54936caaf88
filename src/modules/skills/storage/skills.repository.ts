import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import type { ShareActor } from '../../../common/sharing/index.js';
import { scopeMemberSql } from '../../../common/sharing/index.js';
import { SkillEntity } from './skill.entity.js';
import { readOnce } from '../../../common/read-once/index.js';

export type NewSkillRow = Omit<SkillEntity, 'createdAt' | 'updatedAt'>;
export type SkillRowChanges = Partial<
  Pick<
    SkillEntity,
    | 'name'
    | 'description'
    | 'version'
    | 'shareConfig'
    | 'enabled'
    | 'toolDependencies'
    | 'mcpDependencies'
    | 'skillDependencies'
    | 'openFormat'
    | 'revision'
    | 'contentHash'
  >
>;

/** TypeORM's deep-partial type cannot follow the free-form `metadata` object of `openFormat`. */
type SkillInsert = Parameters<Repository<SkillEntity>['insert']>[0];
type SkillUpdate = Parameters<Repository<SkillEntity>['update']>[1];

/** The index of shared and builtin skills. `canReadSkill` (skill-access.ts) is the TypeScript twin of the read filter. */
@Injectable()
export class SkillsRepository {
  constructor(@InjectRepository(SkillEntity) private readonly rows: Repository<SkillEntity>) {}

  private repo(manager?: EntityManager): Repository<SkillEntity> {
    return manager === undefined ? this.rows : manager.getRepository(SkillEntity);
  }

  findBySlug(slug: string, manager?: EntityManager): Promise<SkillEntity | null> {
    return this.repo(manager).findOneBy({ slug });
  }

  findBySlugs(slugs: readonly string[], manager?: EntityManager): Promise<SkillEntity[]> {
    if (slugs.length === 0) return Promise.resolve([]);
    return this.repo(manager)
      .createQueryBuilder('s')
      .where('s.slug = ANY(:slugs)', { slugs: [...slugs] })
      .getMany();
  }

  /**
   * Builtins are readable by everyone; superadmins read all; others their own or by scope. Read once per
   * read-once scope (a run's assembly asks for it from the agent's fields and from skill resolution).
   */
  listReadable(actor: ShareActor): Promise<SkillEntity[]> {
    return readOnce(`skills:readable:${actor.id}:${actor.role}:${actor.departmentId}`, () =>
      this.queryReadable(actor),
    );
  }

  private queryReadable(actor: ShareActor): Promise<SkillEntity[]> {
    return this.readableQuery(actor).orderBy('s.slug', 'ASC').getMany();
  }

  /**
   * A page of the readable skills in slug order (byte order, as keyset cursors compare): the first
   * `count` whose slug comes after `afterSlug` (or equals it, when `inclusive`).
   */
  pageReadable(
    actor: ShareActor,
    after: { slug: string; inclusive: boolean } | null,
    count: number,
  ): Promise<SkillEntity[]> {
    const query = this.readableQuery(actor).orderBy('s.slug COLLATE "C"', 'ASC').limit(count);
    if (after !== null) {
      query.andWhere(`s.slug COLLATE "C" ${after.inclusive ? '>=' : '>'} :afterSlug`, {
        afterSlug: after.slug,
      });
    }
    return query.getMany();
  }

  private readableQuery(actor: ShareActor) {
    const query = this.rows.createQueryBuilder('s');
    if (actor.role !== 'superadmin') {
      query.andWhere(
        `(s.source_type = 'builtin' OR s.owner_id = :actorId OR ${scopeMemberSql('s.share_config', 'read_scope')} OR ${scopeMemberSql('s.share_config', 'manage_scope')})`,
        { actorId: actor.id, actorDepartment: actor.departmentId },
      );
    }
    return query;
  }

  /** Slug and dependencies of every indexed skill: the graph that cycle checks walk. */
  async dependencyGraph(manager: EntityManager): Promise<Map<string, string[]>> {
    const rows = await this.repo(manager).find({ select: { slug: true, skillDependencies: true } });
    return new Map(rows.map((row) => [row.slug, row.skillDependencies]));
  }

  /** The skills whose `skill_dependencies` name `slug`. */
  findDependents(slug: string, manager: EntityManager): Promise<SkillEntity[]> {
    return this.repo(manager)
      .createQueryBuilder('s')
      .where('s.skill_dependencies @> jsonb_build_array(CAST(:slug AS text))', { slug })
      .orderBy('s.slug', 'ASC')
      .getMany();
  }

  listBuiltin(manager: EntityManager): Promise<SkillEntity[]> {
    return this.repo(manager).findBy({ sourceType: 'builtin' });
  }

  /** Slugs equal to `base` or `base-v<anything>`, to pick the next free suffix. */
  async slugsLike(base: string, manager: EntityManager): Promise<Set<string>> {
    const rows = await this.repo(manager)
      .createQueryBuilder('s')
      .select('s.slug', 'slug')
      .where('s.slug = :base OR s.slug LIKE :prefix', { base, prefix: `${base}-v%` })
      .getRawMany<{ slug: string }>();
    return new Set(rows.map((row) => row.slug));
  }

  async insert(row: NewSkillRow, manager: EntityManager): Promise<void> {
    await this.repo(manager).insert(row as SkillInsert);
  }

  async update(slug: string, changes: SkillRowChanges, manager: EntityManager): Promise<void> {
    await this.repo(manager).update({ slug }, changes as SkillUpdate);
  }

  async delete(slug: string, manager: EntityManager): Promise<void> {
    await this.repo(manager).delete({ slug });
  }

  /** Serializes changes to one skill (files and row) across processes, until the transaction ends. */
  async lockSkill(manager: EntityManager, slug: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('skills:' || $1))`, [slug]);
  }

  /**
   * Serializes everything that adds or changes skill dependencies or slugs, so two concurrent writes
   * cannot together form a cycle or take the same slug.
   */
  async lockCatalog(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('skills:catalog'))`);
  }
}
