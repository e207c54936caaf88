import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { AgentCallResultDto, CreateAgentCallDto } from './agent-call.dto.js';
import { AgentCallsService } from './agent-calls.service.js';
import { ThreadsErrorCode } from '../../threads/index.js';
import { RunsErrorCode } from '../runs/runs.errors.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { AgentCallsErrorCode } from './agent-calls.errors.js';

@ApiTags('Public API')
@ApiBearerAuth()
@Controller('agent-calls')
export class AgentCallsController {
  constructor(private readonly calls: AgentCallsService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Run an agent on an input, in a new or given thread; optionally wait for the answer',
  })
  @ApiOkResponse({ type: AgentCallResultDto })
  @ApiErrors(
    400,
    401,
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
    [422, ThreadsErrorCode.UNKNOWN_AGENT, AgentCallsErrorCode.THREAD_AGENT_MISMATCH],
    [504, RunsErrorCode.WAIT_TIMEOUT],
    503,
  )
  call(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: CreateAgentCallDto,
  ): Promise<AgentCallResultDto> {
    return this.calls.call(user, body);
  }
}
