import {
  Body,
  Controller,
  Delete,
  HttpCode,
  Param,
  Post,
  UploadedFile,
  UseInterceptors,
} from '@nestjs/common';
import { FileInterceptor } from '@nestjs/platform-express';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import { CommonErrorCode, CommonErrors } from '../../../common/errors/index.js';
import { ApiErrors } from '../../../common/swagger/api-errors.decorator.js';
import {
  ConfirmedSkillDraftDto,
  ConfirmSkillDraftDto,
  RemoteSkillDraftDto,
  SkillDraftDto,
} from '../dto/skill-draft.dto.js';
import { SkillsErrorCode } from '../skills.errors.js';
import { RemoteSkillDrafts } from './remote-skill-drafts.js';
import { SkillDraftsService } from './skill-drafts.service.js';
import { SkillUploadInterceptor, type UploadedTempFile } from './skill-upload.js';

const PARSE_ERRORS = [
  SkillsErrorCode.NO_SKILL_FOUND,
  SkillsErrorCode.NESTED_SKILL_MD,
  SkillsErrorCode.UNSAFE_ARCHIVE,
  SkillsErrorCode.ARCHIVE_TOO_COMPLEX,
  SkillsErrorCode.INVALID_ARCHIVE,
] as const;

/** Installing skills: a draft from an upload or a remote source, then confirm or discard. */
@ApiTags('Skills')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('skills/drafts')
export class SkillDraftsController {
  constructor(
    private readonly drafts: SkillDraftsService,
    private readonly remote: RemoteSkillDrafts,
  ) {}

  @Post()
  @UseInterceptors(SkillUploadInterceptor, FileInterceptor('file'))
  @ApiOperation({ summary: 'A draft from an uploaded .zip (one or more skill folders) or a single SKILL.md' })
  @ApiConsumes('multipart/form-data')
  @ApiBody({ schema: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } })
  @ApiOkResponse({ type: SkillDraftDto })
  @ApiErrors(
    [409, SkillsErrorCode.DRAFT_LIMIT_REACHED],
    [413, CommonErrorCode.PAYLOAD_TOO_LARGE, SkillsErrorCode.ARCHIVE_TOO_LARGE],
    [422, ...PARSE_ERRORS],
  )
  create(
    @CurrentUser() actor: AuthenticatedUser,
    @UploadedFile() file: UploadedTempFile | undefined,
  ): Promise<SkillDraftDto> {
    if (file === undefined) {
      throw CommonErrors.validationFailed([
        { field: 'file', messages: ['a multipart file field named "file" is required'] },
      ]);
    }
    return this.drafts.create(actor, { path: file.path, size: file.size });
  }

  @Post('remote')
  @ApiOperation({ summary: 'A draft from a remote source on an allowed host (the skills named)' })
  @ApiOkResponse({ type: SkillDraftDto })
  @ApiErrors(
    [409, SkillsErrorCode.DRAFT_LIMIT_REACHED],
    [413, SkillsErrorCode.ARCHIVE_TOO_LARGE],
    [422, SkillsErrorCode.REMOTE_SOURCE_REFUSED, SkillsErrorCode.UNKNOWN_SKILL_NAMES, ...PARSE_ERRORS],
  )
  createRemote(
    @CurrentUser() actor: AuthenticatedUser,
    @Body() body: RemoteSkillDraftDto,
  ): Promise<SkillDraftDto> {
    return this.remote.create(actor, body.source, body.skill_names);
  }

  @Post(':id/confirm')
  @HttpCode(200)
  @ApiOperation({ summary: "Install the draft's skills (all or `slugs`) and consume the draft" })
  @ApiOkResponse({ type: ConfirmedSkillDraftDto })
  @ApiErrors(
    [403, SkillsErrorCode.SHARED_INSTALL_FORBIDDEN, SkillsErrorCode.SHARE_SCOPE_FORBIDDEN],
    [404, SkillsErrorCode.DRAFT_NOT_FOUND],
    [
      422,
      SkillsErrorCode.UNKNOWN_SKILL_NAMES,
      SkillsErrorCode.UNKNOWN_DEPENDENCY,
      SkillsErrorCode.DEPENDENCY_CYCLE,
      SkillsErrorCode.RESERVED_TOOL_DEPENDENCY,
      SkillsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE,
    ],
  )
  async confirm(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('id') id: string,
    @Body() body: ConfirmSkillDraftDto,
  ): Promise<ConfirmedSkillDraftDto> {
    return { target: body.target, installed: await this.drafts.confirm(actor, id, body) };
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Discard a draft (its creator or an admin)' })
  @ApiErrors([404, SkillsErrorCode.DRAFT_NOT_FOUND])
  discard(@CurrentUser() actor: AuthenticatedUser, @Param('id') id: string): Promise<void> {
    return this.drafts.discard(actor, id);
  }
}
