import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { UserRole } from '../../common/auth/user-role.js';
import type { UserEntity } from './user.entity.js';
import { UsersRepository, type SessionAccount } from './users.repository.js';

export type { SessionAccount } from './users.repository.js';

/** An account as other modules see it (authentication reads the credential fields). */
export type UserAccount = Pick<
  UserEntity,
  'id' | 'username' | 'passwordHash' | 'role' | 'departmentId' | 'disabled' | 'tokenVersion'
>;

/** An active account as a run acts for it. */
export interface ActiveActor {
  id: string;
  role: UserRole;
  departmentId: string;
}

/** The users module's answer to other modules' questions about accounts (they never read `users`). */
@Injectable()
export class UserAccounts {
  constructor(private readonly users: UsersRepository) {}

  findById(id: string): Promise<UserAccount | null> {
    return this.users.findById(id);
  }

  /** The account a request authenticates as, without its credential (read on every request). */
  sessionAccount(id: string): Promise<SessionAccount | null> {
    return this.users.sessionFields(id);
  }

  findByUsername(username: string): Promise<UserAccount | null> {
    return this.users.findByUsername(username);
  }

  /** A stronger hash of the same password, unless it changed meanwhile (see `UsersRepository`). */
  upgradePasswordHash(id: string, current: string, upgraded: string): Promise<void> {
    return this.users.upgradePasswordHash(id, current, upgraded);
  }

  /** The departments of these users (unknown ids are left out). */
  async departmentsOf(userIds: readonly string[]): Promise<Map<string, string>> {
    const users = await Promise.all(userIds.map((id) => this.users.findById(id)));
    return new Map(users.flatMap((user) => (user === null ? [] : [[user.id, user.departmentId] as const])));
  }

  /**
   * The account if it exists and is not disabled, else null. Given a transaction's `manager`, the row is
   * read in it and locked FOR SHARE, so it cannot be disabled or changed until that transaction ends.
   */
  async activeActor(id: string, manager?: EntityManager): Promise<ActiveActor | null> {
    const user = await this.users.actorFields(id, manager);
    if (user === null || user.disabled) return null;
    return { id: user.id, role: user.role, departmentId: user.departmentId };
  }
}
