import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { KeysetPosition } from '../../common/pagination/cursor.js';
import { newestFirstPage } from '../../common/pagination/keyset.js';
import { DepartmentEntity } from './department.entity.js';

export const DEFAULT_DEPARTMENT_NAME = 'default';

@Injectable()
export class DepartmentsRepository {
  constructor(@InjectRepository(DepartmentEntity) private readonly rows: Repository<DepartmentEntity>) {}

  findById(id: string): Promise<DepartmentEntity | null> {
    return this.rows.findOneBy({ id });
  }

  findDefault(): Promise<DepartmentEntity | null> {
    return this.rows.findOneBy({ name: DEFAULT_DEPARTMENT_NAME });
  }

  /** Creates the default department unless it exists; safe when several processes start together. */
  async ensureDefault(): Promise<DepartmentEntity> {
    await this.rows
      .createQueryBuilder()
      .insert()
      .values({ name: DEFAULT_DEPARTMENT_NAME, description: 'Users without a department' })
      .orIgnore()
      .execute();
    return this.rows.findOneByOrFail({ name: DEFAULT_DEPARTMENT_NAME });
  }

  insert(name: string, description: string | null): Promise<DepartmentEntity> {
    return this.rows.save(this.rows.create({ name, description }));
  }

  listPage(limit: number, after: KeysetPosition | null): Promise<DepartmentEntity[]> {
    return newestFirstPage(this.rows.createQueryBuilder('d'), 'd', limit, after).getMany();
  }
}
