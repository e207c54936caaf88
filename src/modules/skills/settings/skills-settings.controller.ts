import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../../common/auth/auth.errors.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import { SkillsSettingsDto, UpdateSkillsSettingsDto } from '../dto/skills-settings.dto.js';
import { SkillsSettings } from './skills-settings.js';

@ApiTags('Settings')
@ApiBearerAuth()
@ApiErrors([400, CommonErrorCode.VALIDATION_FAILED], 401, [403, AuthErrorCode.FORBIDDEN], 503)
@Roles('admin')
@Controller('system/settings/skills')
export class SkillsSettingsController {
  constructor(private readonly settings: SkillsSettings) {}

  @Get()
  @ApiOperation({ summary: 'Hosts remote skill sources may name (default github.com, modelscope.cn)' })
  @ApiOkResponse({ type: SkillsSettingsDto })
  async view(): Promise<SkillsSettingsDto> {
    return { remote_source_allowed_hosts: await this.settings.allowedHosts() };
  }

  @Put()
  @ApiOperation({
    summary: 'Replace the allowed hosts (exact, lowercase host names; [] disables remote installs)',
  })
  @ApiOkResponse({ type: SkillsSettingsDto })
  async update(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: UpdateSkillsSettingsDto,
  ): Promise<SkillsSettingsDto> {
    await this.settings.saveAllowedHosts(body.remote_source_allowed_hosts, actor.id);
    return this.view();
  }
}
