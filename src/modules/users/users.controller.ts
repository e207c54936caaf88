import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CreateUserDto } from './dto/create-user.dto.js';
import { UpdateUserDto } from './dto/update-user.dto.js';
import { UserDto, UserPageDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';
import { uuidParam } from '../../common/validation/uuid-param.pipe.js';
import { AuthErrorCode } from '../../common/auth/auth.errors.js';
import { UsersErrorCode } from './users.errors.js';

@ApiTags('Identity')
@ApiBearerAuth()
@ApiErrors(400, 401, 403)
@Roles('admin')
@Controller('users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @ApiOperation({ summary: 'Create a user (only a superadmin grants admin or superadmin)' })
  @ApiErrors(
    [403, AuthErrorCode.FORBIDDEN, UsersErrorCode.ROLE_GRANT_FORBIDDEN],
    [409, UsersErrorCode.USERNAME_TAKEN],
    [422, UsersErrorCode.UNKNOWN_DEPARTMENT],
  )
  create(@CurrentUser() actor: AuthenticatedUser, @Body() body: CreateUserDto): Promise<UserDto> {
    return this.users.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: 'List users, newest first' })
  @ApiOkResponse({ type: UserPageDto })
  list(@Query() query: PageQueryDto): Promise<UserPageDto> {
    return this.users.list(query);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Change role, department, password or disable a user' })
  @ApiErrors(
    [403, AuthErrorCode.FORBIDDEN, UsersErrorCode.ROLE_GRANT_FORBIDDEN, UsersErrorCode.MANAGE_FORBIDDEN],
    [404, UsersErrorCode.NOT_FOUND],
    [409, UsersErrorCode.LAST_SUPERADMIN],
    [422, UsersErrorCode.UNKNOWN_DEPARTMENT],
  )
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Body() body: UpdateUserDto,
  ): Promise<UserDto> {
    return this.users.update(actor, id, body);
  }
}
