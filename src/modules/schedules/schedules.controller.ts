import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators.js';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user.js';
import { CommonErrorCode } from '../../common/errors/index.js';
import { PageQueryDto } from '../../common/pagination/page-query.dto.js';
import { ApiErrors } from '../../common/swagger/api-errors.decorator.js';
import { uuidParam } from '../../common/validation/uuid-param.pipe.js';
import {
  CreateScheduleDto,
  OccurrencePageDto,
  RunScheduleNowDto,
  ScheduleDto,
  SchedulePageDto,
  ListSchedulesQueryDto,
  ScheduleRunDto,
  UpdateScheduleDto,
} from './dto/schedule.dto.js';
import { SchedulesErrorCode } from './schedules.errors.js';
import { SchedulesService } from './schedules.service.js';

@ApiTags('Schedules')
@ApiBearerAuth()
@ApiErrors(400, 401)
@Controller()
export class SchedulesController {
  constructor(private readonly schedules: SchedulesService) {}

  @Post('agents/:slug/schedules')
  @ApiOperation({ summary: 'Schedule runs of an agent on a cron (idempotent with request_id)' })
  @ApiCreatedResponse({ type: ScheduleDto })
  @ApiErrors(
    [404, SchedulesErrorCode.UNKNOWN_AGENT],
    [409, SchedulesErrorCode.LIMIT_REACHED, CommonErrorCode.REQUEST_ID_CONFLICT],
  )
  create(
    @CurrentUser() user: AuthenticatedUser,
    @Param('slug') slug: string,
    @Body() body: CreateScheduleDto,
  ): Promise<ScheduleDto> {
    return this.schedules.create(user, slug, body);
  }

  @Get('schedules')
  @ApiOperation({ summary: "The caller's schedules (an admin's: everyone's), newest first" })
  @ApiOkResponse({ type: SchedulePageDto })
  list(
    @CurrentUser() user: AuthenticatedUser,
    @Query() query: ListSchedulesQueryDto,
  ): Promise<SchedulePageDto> {
    return this.schedules.list(user, query);
  }

  @Get('schedules/:id')
  @ApiOperation({ summary: 'One schedule (the owner’s; an admin’s: any)' })
  @ApiOkResponse({ type: ScheduleDto })
  @ApiErrors([404, SchedulesErrorCode.NOT_FOUND])
  get(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) id: string): Promise<ScheduleDto> {
    return this.schedules.get(user, id);
  }

  @Patch('schedules/:id')
  @ApiOperation({ summary: 'Change the cron, time zone, input or enabled; a new timing counts from now' })
  @ApiOkResponse({ type: ScheduleDto })
  @ApiErrors([404, SchedulesErrorCode.NOT_FOUND])
  update(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Body() body: UpdateScheduleDto,
  ): Promise<ScheduleDto> {
    return this.schedules.update(user, id, body);
  }

  @Delete('schedules/:id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Delete a schedule and its occurrences (runs already started go on)' })
  @ApiNoContentResponse()
  @ApiErrors([404, SchedulesErrorCode.NOT_FOUND])
  remove(@CurrentUser() user: AuthenticatedUser, @Param('id', uuidParam()) id: string): Promise<void> {
    return this.schedules.remove(user, id);
  }

  @Post('schedules/:id/run')
  @HttpCode(200)
  @ApiOperation({ summary: 'Run the schedule now, on a new thread (idempotent with request_id)' })
  @ApiOkResponse({ type: ScheduleRunDto })
  @ApiErrors(
    [404, SchedulesErrorCode.NOT_FOUND],
    [409, SchedulesErrorCode.NOT_STARTED, CommonErrorCode.CONCURRENT_UPDATE],
    429,
  )
  run(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Body() body: RunScheduleNowDto,
  ): Promise<ScheduleRunDto> {
    return this.schedules.runNow(user, id, body.request_id ?? null);
  }

  @Get('schedules/:id/occurrences')
  @ApiOperation({ summary: 'What each firing of the schedule did, newest first' })
  @ApiOkResponse({ type: OccurrencePageDto })
  @ApiErrors([404, SchedulesErrorCode.NOT_FOUND])
  occurrences(
    @CurrentUser() user: AuthenticatedUser,
    @Param('id', uuidParam()) id: string,
    @Query() query: PageQueryDto,
  ): Promise<OccurrencePageDto> {
    return this.schedules.occurrences(user, id, query);
  }
}
