import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../../common/auth/authenticated-user.js';
import type { ErrorCode } from '../../../common/errors/index.js';
import { ApiErrors, type ErrorSpec } from '../../../common/swagger/api-errors.decorator.js';
import { SkillDto, SkillFileDto, SkillTreeDto } from '../dto/skill.dto.js';
import {
  CreateSkillFileDto,
  SkillDependenciesDto,
  SkillFileQueryDto,
  UpdateSkillFileDto,
} from '../dto/skill-requests.dto.js';
import { SkillsErrorCode } from '../skills.errors.js';
import { SkillsService } from '../skills.service.js';
import { SkillEditor } from './skill-editor.js';

const WRITE_ERRORS: [number, ...ErrorCode[]][] = [
  [400, SkillsErrorCode.INVALID_PATH],
  [403, SkillsErrorCode.MANAGE_FORBIDDEN],
  [404, SkillsErrorCode.NOT_FOUND, SkillsErrorCode.FILE_NOT_FOUND],
  [409, SkillsErrorCode.BUILTIN_IMMUTABLE],
  [413, SkillsErrorCode.FILE_TOO_LARGE, SkillsErrorCode.TOO_MANY_FILES, SkillsErrorCode.PACKAGE_TOO_LARGE],
  [422, SkillsErrorCode.INVALID_SKILL_MD, SkillsErrorCode.SYMLINK_REFUSED, SkillsErrorCode.NOT_TEXT],
];

/** The errors of every write route plus the route's own codes, one entry per status. */
function writeErrors(...extra: [number, ...ErrorCode[]][]): ErrorSpec[] {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const [status, ...codes] of [...WRITE_ERRORS, ...extra]) {
    byStatus.set(status, [...(byStatus.get(status) ?? []), ...codes]);
  }
  return [...byStatus].map(([status, codes]) => [status, ...codes]);
}

@ApiTags('Skills')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('skills/:slug')
export class SkillFilesController {
  constructor(
    private readonly editor: SkillEditor,
    private readonly skills: SkillsService,
  ) {}

  @Get('tree')
  @ApiOperation({ summary: "The skill's files and the skill's revision" })
  @ApiOkResponse({ type: SkillTreeDto })
  @ApiErrors([404, SkillsErrorCode.NOT_FOUND])
  tree(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<SkillTreeDto> {
    return this.editor.tree(actor, slug);
  }

  @Get('files')
  @ApiOperation({ summary: 'One text file with its revision' })
  @ApiOkResponse({ type: SkillFileDto })
  @ApiErrors(
    [400, SkillsErrorCode.INVALID_PATH],
    [404, SkillsErrorCode.NOT_FOUND, SkillsErrorCode.FILE_NOT_FOUND],
    [413, SkillsErrorCode.FILE_TOO_LARGE],
    [422, SkillsErrorCode.SYMLINK_REFUSED, SkillsErrorCode.NOT_TEXT],
  )
  read(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Query() query: SkillFileQueryDto,
  ): Promise<SkillFileDto> {
    return this.editor.read(actor, slug, query.path);
  }

  @Put('files')
  @ApiOperation({
    summary:
      'Save a file over the revision it was read at; saving the root SKILL.md re-syncs name, description and dependencies',
  })
  @ApiOkResponse({ type: SkillFileDto })
  @ApiErrors(
    ...writeErrors(
      [409, SkillsErrorCode.REVISION_CONFLICT],
      [
        422,
        SkillsErrorCode.UNKNOWN_DEPENDENCY,
        SkillsErrorCode.DEPENDENCY_CYCLE,
        SkillsErrorCode.RESERVED_TOOL_DEPENDENCY,
      ],
    ),
  )
  save(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: UpdateSkillFileDto,
  ): Promise<SkillFileDto> {
    return this.editor.save(actor, slug, body.path, body.content, body.revision);
  }

  @Post('files')
  @ApiOperation({ summary: 'Create a text file' })
  @ApiOkResponse({ type: SkillFileDto })
  @ApiErrors(...writeErrors([409, SkillsErrorCode.FILE_EXISTS]))
  create(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: CreateSkillFileDto,
  ): Promise<SkillFileDto> {
    return this.editor.create(actor, slug, body.path, body.content);
  }

  @Delete('files')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a file (not the root SKILL.md)' })
  @ApiErrors(...writeErrors([422, SkillsErrorCode.ROOT_FILE_REQUIRED]))
  remove(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Query() query: SkillFileQueryDto,
  ): Promise<void> {
    return this.editor.remove(actor, slug, query.path);
  }

  @Put('dependencies')
  @ApiOperation({ summary: 'Replace the three dependency lists (written back into the root SKILL.md)' })
  @ApiOkResponse({ type: SkillDto })
  @ApiErrors(
    ...writeErrors([
      422,
      SkillsErrorCode.UNKNOWN_DEPENDENCY,
      SkillsErrorCode.DEPENDENCY_CYCLE,
      SkillsErrorCode.RESERVED_TOOL_DEPENDENCY,
    ]),
  )
  async setDependencies(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: SkillDependenciesDto,
  ): Promise<SkillDto> {
    await this.editor.setDependencies(actor, slug, body);
    return this.skills.get(actor, slug);
  }
}
