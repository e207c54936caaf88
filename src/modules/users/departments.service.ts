import { Injectable } from '@nestjs/common';
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

  async list(): Promise<DepartmentDto[]> {
    return (await this.departments.listAll()).map((d) => DepartmentDto.from(d));
  }
}
