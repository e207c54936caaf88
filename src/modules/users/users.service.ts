import { Injectable } from '@nestjs/common';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import type { UserRole } from '../../common/auth/user-role.js';
import { PasswordHasher } from '../../common/crypto/password-hasher.js';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../../database/unique-violation.js';
import { AccountDisabledHooks } from './account-disabled-hooks.js';
import { DepartmentsRepository } from './departments.repository.js';
import type { CreateUserDto } from './dto/create-user.dto.js';
import type { UpdateUserDto } from './dto/update-user.dto.js';
import { UserDto } from './dto/user.dto.js';
import type { UserEntity } from './user.entity.js';
import { UsersErrors } from './users.errors.js';
import {
  DIRECTORY_LIMIT,
  type UserDirectoryDto,
  type UserDirectoryQueryDto,
} from './dto/user-directory.dto.js';
import { UsersRepository, type UserChanges } from './users.repository.js';

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly departments: DepartmentsRepository,
    private readonly hasher: PasswordHasher,
    private readonly disabledHooks: AccountDisabledHooks,
  ) {}

  async create(actor: AuthenticatedUser, input: CreateUserDto): Promise<UserDto> {
    const role = input.role ?? 'user';
    this.assertMayGrant(actor, role);
    const departmentId = await this.resolveDepartment(input.department_id);
    try {
      const user = await this.users.insert({
        username: input.username,
        passwordHash: await this.hasher.hash(input.password),
        role,
        departmentId,
      });
      return UserDto.from(user);
    } catch (error) {
      if (isUniqueViolation(error, 'users_username_lower_key'))
        throw UsersErrors.usernameTaken(input.username);
      throw error;
    }
  }

  async list(query: PageQueryDto): Promise<Page<UserDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.users.listPage(query.limit, after);
    return toPage(rows, query.limit, (u) => UserDto.from(u));
  }

  async directory(query: UserDirectoryQueryDto): Promise<UserDirectoryDto> {
    const filter = { prefix: query.q ?? null, ids: query.ids ?? null };
    const rows = await this.users.directory(filter, DIRECTORY_LIMIT);
    return { items: rows.map((row) => ({ id: row.id, username: row.username })) };
  }

  async update(actor: AuthenticatedUser, id: string, input: UpdateUserDto): Promise<UserDto> {
    const target = await this.users.findById(id);
    if (target === null) throw UsersErrors.notFound();
    if (target.role !== 'user' && actor.role !== 'superadmin') throw UsersErrors.manageForbidden();
    if (input.role !== undefined) this.assertMayGrant(actor, input.role);

    const changes: UserChanges = {};
    if (input.role !== undefined) changes.role = input.role;
    if (input.disabled !== undefined) changes.disabled = input.disabled;
    if (input.department_id !== undefined)
      changes.departmentId = await this.resolveDepartment(input.department_id);
    if (input.password !== undefined) changes.passwordHash = await this.hasher.hash(input.password);
    if (Object.keys(changes).length > 0) {
      const kept = await this.users.updateKeepingASuperadmin(id, changes, {
        removesSuperadmin: removesActiveSuperadmin(target, input),
        revokesTokens: changesCredentials(target, changes),
      });
      if (!kept) throw UsersErrors.lastSuperadmin();
      if (changes.disabled === true && !target.disabled) await this.disabledHooks.notify(id);
    }

    const updated = await this.users.findById(id);
    if (updated === null) throw UsersErrors.notFound();
    return UserDto.from(updated);
  }

  private assertMayGrant(actor: AuthenticatedUser, role: UserRole): void {
    if (role !== 'user' && actor.role !== 'superadmin') throw UsersErrors.roleGrantForbidden(role);
  }

  private async resolveDepartment(departmentId: string | undefined): Promise<string> {
    if (departmentId === undefined) {
      const fallback = await this.departments.ensureDefault();
      return fallback.id;
    }
    const department = await this.departments.findById(departmentId);
    if (department === null) throw UsersErrors.unknownDepartment(departmentId);
    return department.id;
  }
}

/** A new password, another role or a status change ends the access tokens issued before it. */
function changesCredentials(target: UserEntity, changes: UserChanges): boolean {
  return (
    changes.passwordHash !== undefined ||
    (changes.role !== undefined && changes.role !== target.role) ||
    (changes.disabled !== undefined && changes.disabled !== target.disabled)
  );
}

function removesActiveSuperadmin(target: UserEntity, input: UpdateUserDto): boolean {
  if (target.role !== 'superadmin' || target.disabled) return false;
  return (input.role !== undefined && input.role !== 'superadmin') || input.disabled === true;
}
