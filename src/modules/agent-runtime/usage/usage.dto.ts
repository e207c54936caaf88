import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsOptional, IsUUID, ValidateBy, type ValidationArguments } from 'class-validator';
import { isISO8601 } from 'class-validator';
import { PageQueryDto } from '../../../common/pagination/page-query.dto.js';
import { USAGE_GROUPS, type UsageGroup } from './usage-reports.js';

const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(9999, 0, 1);

/** An ISO-8601 time from 1970 to 9998 (the range the report's day arithmetic and PostgreSQL share). */
export const isUsageTime = (value: unknown): boolean => {
  if (typeof value !== 'string' || !isISO8601(value, { strict: true })) return false;
  const time = Date.parse(value);
  return Number.isFinite(time) && time >= EARLIEST && time < LATEST;
};

const IsUsageTime = () =>
  ValidateBy({
    name: 'isUsageTime',
    validator: {
      validate: isUsageTime,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} must be an ISO-8601 time between 1970 and 9998`,
    },
  });

const NotBeforeSince = () =>
  ValidateBy({
    name: 'notBeforeSince',
    validator: {
      validate: (until: unknown, args?: ValidationArguments) => {
        const since = (args?.object as { since?: unknown } | undefined)?.since;
        if (!isUsageTime(since) || !isUsageTime(until)) return true;
        return Date.parse(since as string) <= Date.parse(until as string);
      },
      defaultMessage: () => 'until must not be before since',
    },
  });

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
  @IsUsageTime()
  since?: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: 'Calls before this time (exclusive); not before `since`.',
  })
  @IsOptional()
  @IsUsageTime()
  @NotBeforeSince()
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
}

export class UsagePageDto {
  @ApiProperty({ type: [UsageItemDto] }) items: UsageItemDto[];
  @ApiProperty({ nullable: true, type: String }) next_cursor: string | null;
}
