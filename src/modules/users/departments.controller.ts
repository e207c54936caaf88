import { Body, Controller, Get, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Roles } from '../../common/auth/auth.decorators.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { DepartmentsService } from './departments.service.js';
import { CreateDepartmentDto, DepartmentDto, DepartmentPageDto } from './dto/department.dto.js';
import { DepartmentsErrorCode } from './users.errors.js';

@ApiTags('Identity')
@ApiBearerAuth()
@ApiErrors(401)
@Controller('departments')
export class DepartmentsController {
  constructor(private readonly departments: DepartmentsService) {}

  @Post()
  @Roles('admin')
  @ApiOperation({ summary: 'Create a department' })
  @ApiErrors(400, 403, [409, DepartmentsErrorCode.NAME_TAKEN])
  create(@Body() body: CreateDepartmentDto): Promise<DepartmentDto> {
    return this.departments.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List departments, newest first' })
  @ApiErrors(400)
  @ApiOkResponse({ type: DepartmentPageDto })
  list(@Query() query: PageQueryDto): Promise<DepartmentPageDto> {
    return this.departments.list(query);
  }
}
