import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { UserDirectoryDto, UserDirectoryQueryDto } from './dto/user-directory.dto.js';
import { UsersService } from './users.service.js';

/** Names for the people a user shares with: any signed-in user, enabled accounts only, id and name only. */
@ApiTags('Identity')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('users/directory')
export class UserDirectoryController {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({
    summary: 'Find users by a username prefix (20 at most), or name the given ids; enabled accounts only',
  })
  @ApiOkResponse({ type: UserDirectoryDto })
  find(@Query() query: UserDirectoryQueryDto): Promise<UserDirectoryDto> {
    return this.users.directory(query);
  }
}
