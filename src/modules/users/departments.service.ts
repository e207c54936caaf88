import { Injectable } from '@nestjs/common';
import { decodeCursor, toPage, type Page } from '../../common/pagination/cursor.js';
import type { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { isUniqueViolation } from '../../database/unique-violation.js';
import { DepartmentsRepository } from './departments.repository.js';
import { DepartmentDto, type CreateDepartmentDto } from './dto/department.dto.js';
import { UsersErrors } from './users.errors.js';

@Injectable()
export class DepartmentsService {
  constructor(private readonly departments: DepartmentsRepository) {}

  async create(input: CreateDepartmentDto): Promise<DepartmentDto> {
    try {
      return DepartmentDto.from(await this.departments.insert(input.name.trim(), input.description ?? null));
    } catch (error) {
      if (isUniqueViolation(error)) throw UsersErrors.departmentNameTaken(input.name);
      throw error;
    }
  }

  async list(query: PageQueryDto): Promise<Page<DepartmentDto>> {
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    const rows = await this.departments.listPage(query.limit, after);
    return toPage(rows, query.limit, (d) => DepartmentDto.from(d));
  }
}
