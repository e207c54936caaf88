import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { AgentsService } from './agents.service.js';
import { formLanguageOf } from './config/agent-config-fields.js';
import { AgentDto, AgentPageDto } from './dto/agent.dto.js';
import { CreateAgentDto } from './dto/create-agent.dto.js';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto.js';
import { UpdateAgentDto } from './dto/update-agent.dto.js';
import { AgentsErrorCode } from './agents.errors.js';

@ApiTags('Agents')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOperation({ summary: 'List the agents the caller can read (subagents only on request), newest first' })
  @ApiOkResponse({ type: AgentPageDto })
  list(@CurrentUser() actor: AuthenticatedUser, @Query() query: ListAgentsQueryDto): Promise<AgentPageDto> {
    return this.agents.list(actor, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create an agent (or a subagent); omitted config fields take their defaults' })
  @ApiErrors(
    [403, AgentsErrorCode.SHARE_SCOPE_FORBIDDEN],
    [409, AgentsErrorCode.SLUG_TAKEN],
    [422, AgentsErrorCode.UNKNOWN_REFERENCE, AgentsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE],
  )
  create(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: CreateAgentDto,
    @Headers('accept-language') language?: string,
  ): Promise<AgentDto> {
    return this.agents.create(actor, body, formLanguageOf(language));
  }

  @Get(':slug')
  @ApiOperation({
    summary: "An agent, the caller's permission and the fields the caller may edit",
    description:
      'The edit form (`configurable_items` names and descriptions) is in Chinese when `Accept-Language` prefers it, else in English.',
  })
  @ApiErrors([404, AgentsErrorCode.NOT_FOUND])
  get(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Headers('accept-language') language?: string,
  ): Promise<AgentDto> {
    return this.agents.get(actor, slug, formLanguageOf(language));
  }

  @Patch(':slug')
  @ApiOperation({ summary: 'Change submitted fields; resource lists keep references the editor cannot use' })
  @ApiErrors(
    [403, AgentsErrorCode.MANAGE_FORBIDDEN, AgentsErrorCode.SHARE_SCOPE_FORBIDDEN],
    [404, AgentsErrorCode.NOT_FOUND],
    [422, AgentsErrorCode.UNKNOWN_REFERENCE, AgentsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE],
  )
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: UpdateAgentDto,
    @Headers('accept-language') language?: string,
  ): Promise<AgentDto> {
    return this.agents.update(actor, slug, body, formLanguageOf(language));
  }

  @Delete(':slug')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an agent (builtin agents cannot be deleted)' })
  @ApiErrors(
    [403, AgentsErrorCode.MANAGE_FORBIDDEN],
    [404, AgentsErrorCode.NOT_FOUND],
    [409, AgentsErrorCode.BUILTIN_IMMUTABLE],
  )
  remove(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<void> {
    return this.agents.remove(actor, slug);
  }
}
