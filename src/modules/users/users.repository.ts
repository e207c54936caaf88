import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly rows: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.rows.findOneBy({ id });
  }

  findByUsername(username: string): Promise<UserEntity | null> {
    return this.rows
      .createQueryBuilder('u')
      .where('lower(u.username) = lower(:username)', { username })
      .getOne();
  }

  insert(user: NewUser): Promise<UserEntity> {
    return this.rows.save(this.rows.create(user));
  }

  async update(id: string, changes: UserChanges): Promise<void> {
    await this.rows.update({ id }, changes);
  }

  countActiveSuperadmins(): Promise<number> {
    return this.rows.countBy({ role: 'superadmin', disabled: false });
  }

  listPage(limit: number, after: KeysetPosition | null): Promise<UserEntity[]> {
    return newestFirstPage(this.rows.createQueryBuilder('u'), 'u', limit, after).getMany();
  }
}
