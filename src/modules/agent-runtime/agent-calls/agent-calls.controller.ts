import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { AgentCallResultDto, CreateAgentCallDto } from './agent-call.dto.js';
import { AgentCallsService } from './agent-calls.service.js';

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
    [404, 'threads.not_found'],
    [409, 'runs.thread_busy', 'runs.waiting_for_answer', 'common.request_id_conflict'],
    [422, 'threads.unknown_agent', 'agent_calls.thread_agent_mismatch'],
    [504, 'runs.wait_timeout'],
    503,
  )
  call(
    @CurrentUser() user: AuthenticatedUser,
    @Body() body: CreateAgentCallDto,
  ): Promise<AgentCallResultDto> {
    return this.calls.call(user, body);
  }
}
