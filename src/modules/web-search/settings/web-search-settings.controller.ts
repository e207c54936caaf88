import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser, Roles } from '../../../common/auth/auth.decorators.js';
import { AuthErrorCode } from '../../../common/auth/auth.errors.js';
import { CommonErrorCode } from '../../../common/errors/index.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import {
  TestWebSearchDto,
  UpdateWebSearchSettingsDto,
  WebSearchSettingsDto,
  WebSearchTestResultDto,
} from '../dto/web-search-settings.dto.js';
import { VENDOR_FAILURE_CODES, WebSearchErrorCode } from '../web-search.errors.js';
import { WebSearchSettingsService } from './web-search-settings.service.js';

@ApiTags('Settings')
@ApiBearerAuth()
@ApiErrors([400, CommonErrorCode.VALIDATION_FAILED], 401, [403, AuthErrorCode.FORBIDDEN], 503)
@Roles('superadmin')
@Controller('system/settings/web-search')
export class WebSearchSettingsController {
  constructor(private readonly settings: WebSearchSettingsService) {}

  @Get()
  @ApiOperation({
    summary: 'Web search and fetch providers, and each vendor key (redacted, with its source)',
  })
  @ApiOkResponse({ type: WebSearchSettingsDto })
  view(): Promise<WebSearchSettingsDto> {
    return this.settings.view();
  }

  @Put()
  @ApiOperation({
    summary: 'Choose the providers and edit vendor keys (encrypted at rest; null clears a saved key)',
  })
  @ApiOkResponse({ type: WebSearchSettingsDto })
  update(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: UpdateWebSearchSettingsDto,
  ): Promise<WebSearchSettingsDto> {
    return this.settings.update(actor, body);
  }

  @Post('test')
  @HttpCode(200)
  @ApiOperation({
    summary:
      'One real vendor call with a draft key (used for this test only, never saved); vendor failures are ' +
      `reported in \`error\` (${VENDOR_FAILURE_CODES.map((c) => `\`${c}\``).join(', ')})`,
  })
  @ApiOkResponse({ type: WebSearchTestResultDto })
  @ApiErrors([400, CommonErrorCode.VALIDATION_FAILED, WebSearchErrorCode.PROVIDER_NOT_SUPPORTED])
  test(@Body() body: TestWebSearchDto): Promise<WebSearchTestResultDto> {
    return this.settings.test(body);
  }
}
