import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { AGENT_SLUG_MAX, AGENT_SLUG_PATTERN } from '../../agents/index.js';
import { RequestIdField } from '../../../common/idempotency/request-id.field.js';
import { WhenPresent } from '../../../common/validation/when-present.js';
import type { ScheduleOccurrenceEntity } from '../schedule-occurrence.entity.js';
import type { ScheduleEntity } from '../schedule.entity.js';

/** The longest input a schedule keeps (a run's message limit). */
export const MAX_SCHEDULE_INPUT_CHARS = 100_000;

/** `GET /api/schedules`: a page, optionally of one agent's schedules only. */
export class ListSchedulesQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ description: 'Only the schedules of this agent.' })
  @IsOptional()
  @IsString()
  @MaxLength(AGENT_SLUG_MAX)
  @Matches(AGENT_SLUG_PATTERN, { message: 'agent_slug must be an agent slug' })
  agent_slug?: string;
}

const CRON_DOC = 'Five fields (minute hour day-of-month month day-of-week), read in `timezone`.';

export class CreateScheduleDto {
  @ApiProperty({ description: CRON_DOC, example: '0 8 * * 1-5' })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  cron: string;

  @ApiProperty({ description: 'An IANA time-zone name.', example: 'Europe/Berlin' })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  timezone: string;

  @ApiProperty({
    description: 'The user message each run starts with.',
    example: 'Summarise yesterday’s tickets.',
  })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_SCHEDULE_INPUT_CHARS)
  input: string;

  @ApiPropertyOptional({ default: true })
  @WhenPresent()
  @IsBoolean()
  enabled?: boolean;

  @RequestIdField()
  request_id?: string;
}

export class UpdateScheduleDto {
  @ApiPropertyOptional({ description: CRON_DOC })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  cron?: string;

  @ApiPropertyOptional({ description: 'An IANA time-zone name.' })
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  timezone?: string;

  @ApiPropertyOptional()
  @WhenPresent()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_SCHEDULE_INPUT_CHARS)
  input?: string;

  @ApiPropertyOptional()
  @WhenPresent()
  @IsBoolean()
  enabled?: boolean;
}

export class RunScheduleNowDto {
  @RequestIdField()
  request_id?: string;
}

export const OCCURRENCE_VIEW_STATUSES = ['started', 'skipped', 'failed'] as const;

export class OccurrenceDto {
  @ApiProperty() id: string;
  @ApiProperty({ description: 'The period fired; for a run-now, when it was asked for.' })
  scheduled_for: string;
  @ApiProperty({
    enum: OCCURRENCE_VIEW_STATUSES,
    description: 'An occurrence still being fired (claimed, its run not yet created) is not listed.',
  })
  status: (typeof OCCURRENCE_VIEW_STATUSES)[number];
  @ApiPropertyOptional({
    enum: ['previous_unfinished', 'agent_unavailable', 'owner_disabled', 'run_refused'],
    description: 'Why no run was started (skipped or failed).',
  })
  reason?: string;
  @ApiPropertyOptional() run_id?: string;
  @ApiPropertyOptional() thread_id?: string;
  @ApiProperty() created_at: string;

  static from(row: ScheduleOccurrenceEntity): OccurrenceDto {
    return {
      id: row.id,
      scheduled_for: row.scheduledFor.toISOString(),
      status: row.status as OccurrenceDto['status'],
      ...(row.reason === null ? {} : { reason: row.reason }),
      ...(row.runId === null ? {} : { run_id: row.runId }),
      ...(row.threadId === null ? {} : { thread_id: row.threadId }),
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class OccurrencePageDto {
  @ApiProperty({ type: [OccurrenceDto] }) items: OccurrenceDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class ScheduleDto {
  @ApiProperty() id: string;
  @ApiProperty() agent_slug: string;
  @ApiProperty() owner_id: string;
  @ApiProperty({ description: CRON_DOC }) cron: string;
  @ApiProperty() timezone: string;
  @ApiProperty() input: string;
  @ApiProperty() enabled: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'The next period; null while disabled.' })
  next_run_at: string | null;
  @ApiPropertyOptional({ type: OccurrenceDto, description: 'The newest occurrence, if any.' })
  last_occurrence?: OccurrenceDto;
  @ApiProperty() created_at: string;

  static from(row: ScheduleEntity, last: ScheduleOccurrenceEntity | null): ScheduleDto {
    return {
      id: row.id,
      agent_slug: row.agentSlug,
      owner_id: row.ownerId,
      cron: row.cron,
      timezone: row.timezone,
      input: row.input,
      enabled: row.enabled,
      next_run_at: row.nextRunAt?.toISOString() ?? null,
      ...(last === null ? {} : { last_occurrence: OccurrenceDto.from(last) }),
      created_at: row.createdAt.toISOString(),
    };
  }
}

export class SchedulePageDto {
  @ApiProperty({ type: [ScheduleDto] }) items: ScheduleDto[];
  @ApiProperty({ type: String, nullable: true }) next_cursor: string | null;
}

export class ScheduleRunDto {
  @ApiProperty() occurrence_id: string;
  @ApiProperty() run_id: string;
  @ApiProperty() thread_id: string;
}
