import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { AgentsService } from './agents.service.js';
import { AgentDto, AgentPageDto } from './dto/agent.dto.js';
import { CreateAgentDto } from './dto/create-agent.dto.js';
import { ListAgentsQueryDto } from './dto/list-agents-query.dto.js';
import { UpdateAgentDto } from './dto/update-agent.dto.js';

@ApiTags('Agents')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get()
  @ApiOperation({ summary: 'List the agents the caller can read (subagents only on request), newest first' })
  list(@CurrentUser() actor: AuthenticatedUser, @Query() query: ListAgentsQueryDto): Promise<AgentPageDto> {
    return this.agents.list(actor, query);
  }

  @Post()
  @ApiOperation({ summary: 'Create an agent (or a subagent); omitted config fields take their defaults' })
  @ApiErrors(
    [403, 'agents.share_scope_forbidden'],
    [409, 'agents.slug_taken'],
    [422, 'agents.unknown_reference', 'agents.manage_scope_outside_read_scope'],
  )
  create(@CurrentUser() actor: AuthenticatedUser, @Body() body: CreateAgentDto): Promise<AgentDto> {
    return this.agents.create(actor, body);
  }

  @Get(':slug')
  @ApiOperation({ summary: "An agent, the caller's permission and the fields the caller may edit" })
  @ApiErrors([404, 'agents.not_found'])
  get(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<AgentDto> {
    return this.agents.get(actor, slug);
  }

  @Patch(':slug')
  @ApiOperation({ summary: 'Change submitted fields; resource lists keep references the editor cannot use' })
  @ApiErrors(
    [403, 'agents.manage_forbidden', 'agents.share_scope_forbidden'],
    [404, 'agents.not_found'],
    [422, 'agents.unknown_reference', 'agents.manage_scope_outside_read_scope'],
  )
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: UpdateAgentDto,
  ): Promise<AgentDto> {
    return this.agents.update(actor, slug, body);
  }

  @Delete(':slug')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete an agent (builtin agents cannot be deleted)' })
  @ApiErrors([403, 'agents.manage_forbidden'], [404, 'agents.not_found'], [409, 'agents.builtin_immutable'])
  remove(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<void> {
    return this.agents.remove(actor, slug);
  }
}
