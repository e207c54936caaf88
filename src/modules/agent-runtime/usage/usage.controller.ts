import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { ThreadsErrorCode } from '../../threads/index.js';
import { ThreadUsageDto, ThreadUsageQueryDto, UsagePageDto, UsageQueryDto } from './usage.dto.js';
import { UsageErrorCode } from './usage.errors.js';
import { UsageService } from './usage.service.js';

@ApiTags('Usage')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller()
export class UsageController {
  constructor(private readonly usage: UsageService) {}

  @Get('threads/:id/usage')
  @ApiOperation({ summary: "Token usage of a thread's runs, by model (optionally with their subagent runs)" })
  @ApiOkResponse({ type: ThreadUsageDto })
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND])
  ofThread(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) threadId: string,
    @Query() query: ThreadUsageQueryDto,
  ): Promise<ThreadUsageDto> {
    return this.usage.ofThread(user, threadId, query.include_children);
  }

  @Get('usage')
  @ApiOperation({
    summary:
      'Token usage grouped by user, agent, model or UTC day: admins see everyone, a user their own calls',
  })
  @ApiOkResponse({ type: UsagePageDto })
  @ApiErrors([403, UsageErrorCode.USER_FORBIDDEN])
  report(@CurrentUser() viewer: AuthenticatedUser, @Query() query: UsageQueryDto): Promise<UsagePageDto> {
    return this.usage.report(viewer, query);
  }
}
