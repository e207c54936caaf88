import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../../common/auth/auth.errors.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { KnowledgeSettingsDto } from '../dto/knowledge-settings.dto.js';
import { KnowledgeSettings } from './knowledge-settings.js';

@ApiTags('Settings')
@ApiBearerAuth()
@ApiErrors([400, CommonErrorCode.VALIDATION_FAILED], 401, [403, AuthErrorCode.FORBIDDEN], 503)
@Roles('admin')
@Controller('system/settings/knowledge')
export class KnowledgeSettingsController {
  constructor(private readonly settings: KnowledgeSettings) {}

  @Get()
  @ApiOperation({ summary: 'Whether knowledge (the knowledge MCP tools) is on (default: on)' })
  @ApiOkResponse({ type: KnowledgeSettingsDto })
  async view(): Promise<KnowledgeSettingsDto> {
    return { enabled: await this.settings.isEnabled() };
  }

  @Put()
  @ApiOperation({ summary: 'Switch knowledge on or off (bases and files are kept either way)' })
  @ApiOkResponse({ type: KnowledgeSettingsDto })
  async update(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: KnowledgeSettingsDto,
  ): Promise<KnowledgeSettingsDto> {
    await this.settings.save(body.enabled, actor.id);
    return this.view();
  }
}
