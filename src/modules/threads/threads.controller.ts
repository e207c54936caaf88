import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { CreateThreadDto, ThreadDto, ThreadPageDto, UpdateThreadDto } from './dto/thread.dto.js';
import { ThreadsService } from './threads.service.js';
import { uuidParam } from '../../common/validation/uuid-param.pipe.js';
import { CommonErrorCode } from '../../common/errors/index.js';
import { ThreadsErrorCode } from './threads.errors.js';

@ApiTags('Threads')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('threads')
export class ThreadsController {
  constructor(private readonly threads: ThreadsService) {}

  @Post()
  @ApiOperation({ summary: 'Start a conversation with an agent (idempotent with request_id)' })
  @ApiErrors([409, CommonErrorCode.REQUEST_ID_CONFLICT], [422, ThreadsErrorCode.UNKNOWN_AGENT])
  create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateThreadDto): Promise<ThreadDto> {
    return this.threads.create(user, body);
  }

  @Get()
  @ApiOperation({ summary: "The caller's threads, newest first" })
  @ApiOkResponse({ type: ThreadPageDto })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: PageQueryDto): Promise<ThreadPageDto> {
    return this.threads.list(user, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'One of the caller’s threads' })
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND])
  get(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) id: string): Promise<ThreadDto> {
    return this.threads.get(user, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Rename a thread' })
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND])
  rename(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Body() body: UpdateThreadDto,
  ): Promise<ThreadDto> {
    return this.threads.rename(user, id, body.title);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({
    summary: 'Delete a thread and its workdir files',
    description:
      'Refused with 409 threads.run_active while one of its runs has not finished (cancel it first). ' +
      "A subagent's child thread shares its parent's workdir, which stays.",
  })
  @ApiNoContentResponse()
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND], [409, ThreadsErrorCode.RUN_ACTIVE])
  delete(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) id: string): Promise<void> {
    return this.threads.delete(user, id);
  }
}
