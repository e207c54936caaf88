import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../../common/auth/auth.errors.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import {
  CreateKnowledgeBaseDto,
  KnowledgeBaseDto,
  KnowledgeBasePageDto,
  ListKnowledgeBasesQueryDto,
  UpdateKnowledgeBaseDto,
} from '../dto/knowledge-base.dto.js';
import { KnowledgeQueryDto, KnowledgeQueryResultDto } from '../dto/knowledge-query.dto.js';
import { KnowledgeErrorCode } from '../knowledge.errors.js';
import { KnowledgeQueryService } from '../search/knowledge-query.service.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';

@ApiTags('Knowledge')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('knowledge-bases')
export class KnowledgeBasesController {
  constructor(
    private readonly kbs: KnowledgeBasesService,
    private readonly queries: KnowledgeQueryService,
  ) {}

  @Post()
  @Roles('admin')
  @ApiOperation({ summary: 'Create a knowledge base (admins); readable by everyone unless shared otherwise' })
  @ApiCreatedResponse({ type: KnowledgeBaseDto })
  @ApiErrors(
    [403, AuthErrorCode.FORBIDDEN, KnowledgeErrorCode.SHARE_SCOPE_FORBIDDEN],
    [422, KnowledgeErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE],
  )
  create(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: CreateKnowledgeBaseDto,
  ): Promise<KnowledgeBaseDto> {
    return this.kbs.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: 'The knowledge bases the caller can read, newest first' })
  @ApiOkResponse({ type: KnowledgeBasePageDto })
  list(
    @CurrentUser() actor: AuthenticatedUser,
    @Query() query: ListKnowledgeBasesQueryDto,
  ): Promise<KnowledgeBasePageDto> {
    return this.kbs.list(actor, query);
  }

  @Get(':kb_id')
  @ApiOperation({ summary: 'A knowledge base and the caller’s permission on it' })
  @ApiOkResponse({ type: KnowledgeBaseDto })
  @ApiErrors([404, KnowledgeErrorCode.NOT_FOUND])
  get(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
  ): Promise<KnowledgeBaseDto> {
    return this.kbs.get(actor, kbId);
  }

  @Patch(':kb_id')
  @ApiOperation({ summary: 'Change name, description or share config (managers)' })
  @ApiOkResponse({ type: KnowledgeBaseDto })
  @ApiErrors(
    [403, KnowledgeErrorCode.MANAGE_FORBIDDEN, KnowledgeErrorCode.SHARE_SCOPE_FORBIDDEN],
    [404, KnowledgeErrorCode.NOT_FOUND],
    [422, KnowledgeErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE],
  )
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @Body() body: UpdateKnowledgeBaseDto,
  ): Promise<KnowledgeBaseDto> {
    return this.kbs.update(actor, kbId, body);
  }

  @Delete(':kb_id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a knowledge base with its files (managers)' })
  @ApiErrors([403, KnowledgeErrorCode.MANAGE_FORBIDDEN], [404, KnowledgeErrorCode.NOT_FOUND])
  remove(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
  ): Promise<void> {
    return this.kbs.remove(actor, kbId);
  }

  @Post(':kb_id/query')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Search the knowledge base: the best chunks first (BM25, hybrid with embeddings)',
  })
  @ApiOkResponse({ type: KnowledgeQueryResultDto })
  @ApiErrors([404, KnowledgeErrorCode.NOT_FOUND])
  query(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('kb_id', uuidParam('kb_id')) kbId: string,
    @Body() body: KnowledgeQueryDto,
  ): Promise<KnowledgeQueryResultDto> {
    return this.queries.query(actor, kbId, body);
  }
}
