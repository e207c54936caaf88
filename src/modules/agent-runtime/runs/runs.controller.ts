import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiAcceptedResponse, ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { MessagePageDto } from '../dto/message.dto.js';
import { CreateRunDto, RunAcceptedDto, RunDto } from '../dto/run.dto.js';
import { ThreadStateDto } from '../dto/thread-state.dto.js';
import { CompactionAcceptedDto } from '../dto/compaction.dto.js';
import { ThreadCompactionRequests } from './thread-compaction-request.js';
import { RunsService } from './runs.service.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { ThreadsErrorCode } from '../../threads/index.js';
import { RunsErrorCode } from './runs.errors.js';
import { CommonErrorCode } from '../../../common/errors/index.js';

@ApiTags('Runs')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller()
export class RunsController {
  constructor(
    private readonly runs: RunsService,
    private readonly compaction: ThreadCompactionRequests,
  ) {}

  @Post('threads/:id/runs')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a message: starts a run now or queues it behind the active one' })
  @ApiAcceptedResponse({ type: RunAcceptedDto })
  @ApiErrors(
    [404, ThreadsErrorCode.NOT_FOUND],
    [
      409,
      RunsErrorCode.THREAD_BUSY,
      RunsErrorCode.WAITING_FOR_ANSWER,
      RunsErrorCode.CHILD_THREAD,
      ThreadsErrorCode.AGENT_DELETED,
      CommonErrorCode.REQUEST_ID_CONFLICT,
    ],
    [429, RunsErrorCode.TOO_MANY_ACTIVE_RUNS],
    503,
  )
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) threadId: string,
    @Body() body: CreateRunDto,
  ): Promise<RunAcceptedDto> {
    return this.runs.create(user, threadId, body);
  }

  @Post('threads/:id/compact')
  @HttpCode(202)
  @ApiOperation({
    summary: "Compress an idle thread's history now: its oldest turns become one summary the model reads",
  })
  @ApiAcceptedResponse({ type: CompactionAcceptedDto })
  @ApiErrors(
    [404, ThreadsErrorCode.NOT_FOUND],
    [409, RunsErrorCode.THREAD_BUSY, RunsErrorCode.WAITING_FOR_ANSWER, RunsErrorCode.CHILD_THREAD],
    503,
  )
  compact(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) threadId: string,
  ): Promise<CompactionAcceptedDto> {
    return this.compaction.request(user, threadId);
  }

  @Get('threads/:id/messages')
  @ApiOperation({ summary: 'Messages of a thread (user, assistant, tool), oldest first' })
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND])
  @ApiOkResponse({ type: MessagePageDto })
  messages(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) threadId: string,
    @Query() query: PageQueryDto,
  ): Promise<MessagePageDto> {
    return this.runs.messagesOf(user, threadId, query);
  }

  @Get('threads/:id/state')
  @ApiOperation({ summary: 'The active run, artifacts and activated skills of a thread' })
  @ApiErrors([404, ThreadsErrorCode.NOT_FOUND])
  state(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) threadId: string,
  ): Promise<ThreadStateDto> {
    return this.runs.stateOf(user, threadId);
  }

  @Get('runs/:id')
  @ApiOperation({ summary: 'One of the caller’s runs' })
  @ApiErrors([404, RunsErrorCode.NOT_FOUND])
  get(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) runId: string): Promise<RunDto> {
    return this.runs.get(user, runId);
  }

  @Post('runs/:id/cancel')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Cancel a run (and its subagent runs); a running run stops at its next safe point',
  })
  @ApiErrors(
    [404, RunsErrorCode.NOT_FOUND],
    [409, RunsErrorCode.ALREADY_FINISHED, CommonErrorCode.CONCURRENT_UPDATE],
  )
  cancel(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) runId: string): Promise<RunDto> {
    return this.runs.cancel(user, runId);
  }
}
