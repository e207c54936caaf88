import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsUUID } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { IsWindowTime, NotBeforeSince, timeBetween } from '../../../common/validation/time-window.js';
import { USAGE_GROUPS, type UsageGroup } from './usage-reports.js';

/** The range the report's day arithmetic and PostgreSQL share. */
const USAGE_TIME = timeBetween(
  Date.UTC(1970, 0, 1),
  Date.UTC(9999, 0, 1),
  'must be an ISO-8601 time between 1970 and 9998',
);

export class UsageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: USAGE_GROUPS,
    default: 'user',
    description: 'What an item of the report sums over.',
  })
  @IsOptional()
  @IsIn(USAGE_GROUPS)
  group_by: UsageGroup = 'user';

  @ApiPropertyOptional({ format: 'date-time', description: 'Calls at or after this time (inclusive).' })
  @IsOptional()
  @IsWindowTime(USAGE_TIME)
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Calls before this time (exclusive); not before `since`.',
  })
  @IsOptional()
  @IsWindowTime(USAGE_TIME)
  @NotBeforeSince(USAGE_TIME)
  until?: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description: "Only this user's calls. A normal user may only give their own id (another: 403).",
  })
  @IsOptional()
  @IsUUID()
  user_id?: string;
}

export class ThreadUsageQueryDto {
  @ApiPropertyOptional({
    default: false,
    description: "Add the calls of the thread's subagent runs (their children too, at any depth).",
  })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (value === 'true' ? true : value === 'false' ? false : value))
  @IsBoolean()
  include_children: boolean = false;
}

export class UsageTotalDto {
  @ApiProperty() input_tokens: number;
  @ApiProperty() output_tokens: number;
  @ApiProperty({
    description: 'Input tokens the provider read from its prompt cache (part of input_tokens).',
  })
  cached_tokens: number;
  @ApiProperty({ description: 'Model calls.' }) calls: number;
}

export class ModelUsageDto extends UsageTotalDto {
  @ApiProperty() model: string;
}

export class ThreadUsageDto {
  @ApiProperty({ type: UsageTotalDto }) total: UsageTotalDto;
  @ApiProperty({ type: [ModelUsageDto], description: 'By model name, in ascending order.' })
  by_model: ModelUsageDto[];
}

export class UsageItemDto extends UsageTotalDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'The group: a user id, an agent id (null: calls counted without one), a model name, or a UTC day `YYYY-MM-DD`.',
  })
  key: string | null;

  @ApiPropertyOptional({
    nullable: true,
    type: String,
    description: 'By agent only: the agent’s name (null once the agent is deleted).',
  })
  label?: string | null;
}

export class UsagePageDto {
  @ApiProperty({ type: [UsageItemDto] }) items: UsageItemDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}
