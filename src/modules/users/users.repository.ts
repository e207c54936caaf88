import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository, type EntityManager } from 'typeorm';
import { escapeLike } from '../../database/escape-like.js';
import { preparedQueryIn } from '../../database/prepared-query.js';
import type { UserRole } from '../../common/auth/user-role.js';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { UserEntity } from './user.entity.js';

export interface NewUser {
  username: string;
  passwordHash: string;
  role: UserRole;
  departmentId: string;
}

export type UserChanges = Partial<Pick<UserEntity, 'role' | 'departmentId' | 'disabled' | 'passwordHash'>>;

/** An account as a request's authentication sees it. */
export type SessionAccount = Pick<
  UserEntity,
  'id' | 'username' | 'role' | 'departmentId' | 'disabled' | 'tokenVersion'
>;

/** Serializes changes that could remove the last active superadmin. */
const SUPERADMIN_LOCK_KEY = 7_314_205_119;

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly rows: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** Enabled accounts by username prefix or by id, ordered by name: the user directory. */
  directory(
    filter: { prefix: string | null; ids: string[] | null },
    limit: number,
  ): Promise<Pick<UserEntity, 'id' | 'username'>[]> {
    const query = this.rows
      .createQueryBuilder('u')
      .select(['u.id', 'u.username'])
      .where('u.disabled = false')
      .orderBy('lower(u.username)')
      .limit(filter.ids === null ? limit : filter.ids.length);
    if (filter.prefix !== null) {
      const pattern = `${escapeLike(filter.prefix.toLowerCase())}%`;
      query.andWhere(`lower(u.username) LIKE :pattern ESCAPE '\\'`, { pattern });
    }
    if (filter.ids !== null) query.andWhere('u.id IN (:...ids)', { ids: filter.ids });
    return query.getMany();
  }

  /** What authenticating a request needs of an account (no credential), in one prepared statement. */
  async sessionFields(id: string): Promise<SessionAccount | null> {
    const rows = await preparedQueryIn<SessionAccount>(
      this.rows.manager,
      `SELECT id, username, role, department_id AS "departmentId", disabled, token_version AS "tokenVersion"
         FROM users WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /**
   * What a run's authorization re-check needs of an account, in one plain statement (it runs before every
   * tool call). In a transaction (`manager`) the row is locked FOR SHARE until it ends.
   */
  async actorFields(
    id: string,
    manager?: EntityManager,
  ): Promise<Pick<UserEntity, 'id' | 'role' | 'departmentId' | 'disabled'> | null> {
    type Fields = Pick<UserEntity, 'id' | 'role' | 'departmentId' | 'disabled'>;
    const text = `SELECT id, role, department_id AS "departmentId", disabled FROM users WHERE id = $1`;
    const rows = await preparedQueryIn<Fields>(
      manager ?? this.rows.manager,
      manager === undefined ? text : `${text} FOR SHARE`,
      [id],
    );
    return rows[0] ?? null;
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.rows
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username)', { username })
      .getOne();
  }

  /**
   * Stores a stronger hash of the same password, unless the hash changed meanwhile (a password change
   * wins). Not a credential change: the token version stays.
   */
  async upgradePasswordHash(id: string, current: string, upgraded: string): Promise<void> {
    await this.rows.update({ id, passwordHash: current }, { passwordHash: upgraded });
  }

  insert(user: NewUser): Promise<UserEntity> {
    return this.rows.save(this.rows.create(user));
  }

  /**
   * Applies the changes; when they would remove an active superadmin, first checks under a lock that
   * another one remains (two concurrent demotions cannot leave none). Returns false if none would remain.
   * `revokesTokens` increments the token version in the same statement, ending every access token
   * issued before.
   */
  async updateKeepingASuperadmin(
    id: string,
    changes: UserChanges,
    { removesSuperadmin, revokesTokens }: { removesSuperadmin: boolean; revokesTokens: boolean },
  ): Promise<boolean> {
    return this.rows.manager.transaction(async (manager) => {
      const users = manager.getRepository(UserEntity);
      if (removesSuperadmin) {
        await manager.query('SELECT pg_advisory_xact_lock($1)', [SUPERADMIN_LOCK_KEY]);
        if ((await users.countBy({ role: 'superadmin', disabled: false })) <= 1) return false;
      }
      await users.update(
        { id },
        revokesTokens ? { ...changes, tokenVersion: () => 'token_version + 1' } : changes,
      );
      return true;
    });
  }

  listPage(limit: number, after: KeysetPosition | null): Promise<UserEntity[]> {
    return newestFirstPage(this.rows.createQueryBuilder('u'), 'u', limit, after).getMany();
  }
}
