import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { ApiKeysService } from './api-keys.service.js';
import { ApiKeyCreatedDto, ApiKeyPageDto, CreateApiKeyDto } from './dto/api-key.dto.js';
import { uuidParam } from '../../../common/validation/uuid-param.pipe.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { ApiKeysErrorCode } from '../auth.errors.js';

@ApiTags('Identity')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly apiKeys: ApiKeysService) {}

  @Post()
  @ApiOperation({ summary: 'Create an API key for the Public API (shown once; replayable by request_id)' })
  @ApiErrors([
    409,
    CommonErrorCode.REQUEST_ID_CONFLICT,
    ApiKeysErrorCode.REPLAY_UNAVAILABLE,
    ApiKeysErrorCode.REVOKED,
  ])
  create(@CurrentUser() user: AuthenticatedUser, @Body() body: CreateApiKeyDto): Promise<ApiKeyCreatedDto> {
    return this.apiKeys.create(user, body);
  }

  @Get()
  @ApiOperation({ summary: "List the caller's API keys (a superadmin sees all), without secrets" })
  @ApiOkResponse({ type: ApiKeyPageDto })
  list(@CurrentUser() user: AuthenticatedUser, @Query() query: PageQueryDto): Promise<ApiKeyPageDto> {
    return this.apiKeys.list(user, query);
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Revoke an API key' })
  @ApiNoContentResponse({ description: 'Revoked (also when it already was).' })
  @ApiErrors([404, ApiKeysErrorCode.NOT_FOUND])
  revoke(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) id: string): Promise<void> {
    return this.apiKeys.revoke(user, id);
  }
}
