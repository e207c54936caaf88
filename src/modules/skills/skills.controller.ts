import { Body, Controller, Delete, Get, HttpCode, Param, Put, Query, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiProduces, ApiTags } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ShareConfigDto } from '../../common/sharing/index.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { SkillDto, SkillListDto } from './dto/skill.dto.js';
import { SkillEnabledDto } from './dto/skill-requests.dto.js';
import { SkillsErrorCode } from './skills.errors.js';
import { SkillsService } from './skills.service.js';

@ApiTags('Skills')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller('skills')
export class SkillsController {
  constructor(private readonly skills: SkillsService) {}

  @Get()
  @ApiOperation({
    summary:
      'Skills the caller can use: personal, shared and builtin (a personal one shadows its shared namesake)',
  })
  @ApiOkResponse({ type: SkillListDto })
  list(@CurrentUser() actor: AuthenticatedUser, @Query() query: PageQueryDto): Promise<SkillListDto> {
    return this.skills.list(actor, query);
  }

  @Delete('personal/:slug')
  @HttpCode(204)
  @ApiOperation({
    summary: "Delete one of the caller's personal skills (a shared one with the slug applies again)",
  })
  @ApiErrors([404, SkillsErrorCode.NOT_FOUND])
  removePersonal(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<void> {
    return this.skills.removePersonal(actor, slug);
  }

  @Get(':slug')
  @ApiOperation({ summary: "A skill (the caller's personal one first), its permission and revision" })
  @ApiOkResponse({ type: SkillDto })
  @ApiErrors([404, SkillsErrorCode.NOT_FOUND])
  get(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<SkillDto> {
    return this.skills.get(actor, slug);
  }

  @Put(':slug/share-config')
  @ApiOperation({ summary: 'Replace the share config of a shared skill' })
  @ApiOkResponse({ type: SkillDto })
  @ApiErrors(
    [403, SkillsErrorCode.MANAGE_FORBIDDEN, SkillsErrorCode.SHARE_SCOPE_FORBIDDEN],
    [404, SkillsErrorCode.NOT_FOUND],
    [409, SkillsErrorCode.BUILTIN_IMMUTABLE],
    [422, SkillsErrorCode.MANAGE_SCOPE_OUTSIDE_READ_SCOPE, SkillsErrorCode.UNKNOWN_DEPENDENCY],
  )
  shareConfig(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: ShareConfigDto,
  ): Promise<SkillDto> {
    return this.skills.updateShareConfig(actor, slug, body);
  }

  @Put(':slug/enabled')
  @ApiOperation({ summary: 'Enable or disable a shared or builtin skill' })
  @ApiOkResponse({ type: SkillDto })
  @ApiErrors([403, SkillsErrorCode.MANAGE_FORBIDDEN], [404, SkillsErrorCode.NOT_FOUND])
  setEnabled(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: SkillEnabledDto,
  ): Promise<SkillDto> {
    return this.skills.setEnabled(actor, slug, body.enabled);
  }

  @Get(':slug/export')
  @ApiOperation({ summary: 'The skill as a zip (entries under `<slug>/`)' })
  @ApiProduces('application/zip')
  @ApiErrors([403, SkillsErrorCode.MANAGE_FORBIDDEN], [404, SkillsErrorCode.NOT_FOUND])
  async export(
    @CurrentUser() actor: AuthenticatedUser,
    @Param('slug') slug: string,
  ): Promise<StreamableFile> {
    const exported = await this.skills.export(actor, slug);
    return new StreamableFile(exported.zip, {
      type: 'application/zip',
      disposition: `attachment; filename="${exported.slug}.zip"`,
    });
  }

  @Delete(':slug')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a shared skill (builtin skills cannot be deleted)' })
  @ApiErrors(
    [403, SkillsErrorCode.MANAGE_FORBIDDEN],
    [404, SkillsErrorCode.NOT_FOUND],
    [409, SkillsErrorCode.BUILTIN_IMMUTABLE, SkillsErrorCode.HAS_DEPENDENTS],
  )
  remove(@CurrentUser() actor: AuthenticatedUser, @Param('slug') slug: string): Promise<void> {
    return this.skills.removeShared(actor, slug);
  }
}
